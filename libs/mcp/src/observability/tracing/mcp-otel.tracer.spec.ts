import { jest } from '@jest/globals';

// The application without @opentelemetry/api: its import fails as Node fails an import of a package not installed.
jest.unstable_mockModule('@opentelemetry/api', () => {
  throw Object.assign(new Error("Cannot find package '@opentelemetry/api'"), { code: 'ERR_MODULE_NOT_FOUND' });
});
const { bootError, bootMcp, closeMcpApps, dispatch } = await import('../../../../../test/kit/boot-mcp.js');
const { McpConfigurationError } = await import('../../core/errors/mcp-configuration.error.js');

describe('McpOtelTracer without @opentelemetry/api installed', () => {
  afterEach(closeMcpApps);

  it('tracing unset: the app boots and serves requests untraced', async () => {
    const app = await bootMcp();
    expect(await dispatch(app, 'ping')).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it('tracing.enabled true: app.init() fails, naming the option and the package to install', async () => {
    const error = await bootError(() => bootMcp([], { options: { observability: { tracing: { enabled: true } } } }));
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect(error.message).toMatch(
      /"observability\.tracing\.enabled" is true but @opentelemetry\/api is not installed.*npm install @opentelemetry\/api/,
    );
  });
});
