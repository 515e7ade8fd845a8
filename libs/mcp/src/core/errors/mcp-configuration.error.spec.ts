import { bootErrors } from './boot-errors.js';
import { McpConfigurationError } from './mcp-configuration.error.js';

describe('McpConfigurationError', () => {
  const { duplicate } = bootErrors({
    duplicate: {
      code: 'MCP_ERR_TEST_DUPLICATE',
      message: (name: string) => `Tool name "${name}" is declared twice.`,
      fix: 'Rename one of them.',
    },
  });

  it('carries the code, keeps the message as written and shows the code first in the stack and String(error)', () => {
    const error = new McpConfigurationError(duplicate('echo'));
    expect(duplicate.code).toBe('MCP_ERR_TEST_DUPLICATE');
    expect(error).toMatchObject({ name: 'McpConfigurationError', code: 'MCP_ERR_TEST_DUPLICATE' });
    expect(error.message).toBe('Tool name "echo" is declared twice.');
    expect(error.stack?.split('\n')[0]).toBe('McpConfigurationError [MCP_ERR_TEST_DUPLICATE]: Tool name "echo" is declared twice.');
    expect(String(error)).toBe('McpConfigurationError [MCP_ERR_TEST_DUPLICATE]: Tool name "echo" is declared twice.');
  });

  it('built from a bare message (an app of its own), has no code', () => {
    const error = new McpConfigurationError('REDIS_URL and REDIS_CLUSTER_NODES are both set');
    expect(error.code).toBeUndefined();
    expect(String(error)).toBe('McpConfigurationError: REDIS_URL and REDIS_CLUSTER_NODES are both set');
  });
});
