import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import type { McpToolContext } from '../../core/mcp-tool-context.interface.js';
import { RawSchemaCompiler } from '../tools/schema/raw-schema.compiler.js';
import type { McpToolDefinition } from '../tools/mcp-tool-definition.interface.js';
import { hideArguments, renameArguments } from './arguments.transform.js';
import { transformTool } from './mcp-tool-transform.interface.js';
import { namespaceTools } from './namespace.transform.js';
import { thrown } from '../../../../../test/kit/boot-mcp.js';

const inputSchema = {
  type: 'object',
  properties: { q: { type: 'string', minLength: 2 }, tenant: { type: 'string' }, limit: { type: 'integer' } },
  required: ['q', 'tenant'],
  additionalProperties: false,
};

/** A tool as a source yields it: a JSON Schema, its compiled check, and a handler that echoes its arguments. */
function searchTool(overrides: Partial<McpToolDefinition> = {}): McpToolDefinition {
  return {
    name: 'search',
    site: 'Upstream#search',
    descriptor: { name: 'search', description: 'Searches', inputSchema },
    checkRawArgs: new RawSchemaCompiler().compile(inputSchema),
    timeoutMs: 1000,
    scopes: [],
    idempotencyKey: 'q',
    handler: async (args) => args,
    ...overrides,
  };
}

const context = {} as McpToolContext;

describe('namespaceTools', () => {
  it('prefixes the name in the definition and the descriptor, keeping the site', () => {
    const tool = namespaceTools('weather')(searchTool());
    expect(tool.name).toBe('weather_search');
    expect(tool.descriptor.name).toBe('weather_search');
    expect(tool.site).toBe('Upstream#search');
  });

  it('fails the boot when the prefixed name breaks the tool-name rules, naming the site', () => {
    const error = thrown(() => namespaceTools('bad ns')(searchTool()));
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect(error.message).toContain('Upstream#search');
  });
});

describe('renameArguments', () => {
  const renamed = renameArguments({ q: 'query' })(searchTool());

  it('shows the new names in the schema, required list and idempotency key', () => {
    expect(Object.keys(renamed.descriptor.inputSchema.properties as object)).toEqual(['query', 'tenant', 'limit']);
    expect(renamed.descriptor.inputSchema.required).toEqual(['query', 'tenant']);
    expect(renamed.descriptor.inputSchema.additionalProperties).toBe(false);
    expect(renamed.idempotencyKey).toBe('query');
  });

  it('maps arguments back before the schema check and the handler', async () => {
    expect(renamed.checkRawArgs!({ query: 'rain', tenant: 'acme' })).toEqual({ valid: true });
    expect(await renamed.handler({ query: 'rain', tenant: 'acme' }, context)).toEqual({ q: 'rain', tenant: 'acme' });
  });

  it('reports a failing field under the name the caller used', () => {
    const check = renamed.checkRawArgs!({ query: 'r', tenant: 'acme' });
    expect(check).toMatchObject({ valid: false, fields: ['query'] });
  });

  it('refuses an argument the tool does not take, and a DTO tool', () => {
    expect(thrown(() => renameArguments({ nope: 'x' })(searchTool())).message).toContain('"nope"');
    expect(thrown(() => renameArguments({ q: 'query' })(searchTool({ argsType: class Dto {} }))).message).toContain('not a DTO');
  });
});

describe('hideArguments', () => {
  const hidden = hideArguments({ tenant: 'acme' })(searchTool());

  it('removes the argument from the schema and its required list', () => {
    expect(Object.keys(hidden.descriptor.inputSchema.properties as object)).toEqual(['q', 'limit']);
    expect(hidden.descriptor.inputSchema.required).toEqual(['q']);
  });

  it('always gives the tool the fixed value, over a value the caller sent', async () => {
    expect(hidden.checkRawArgs!({ q: 'rain' })).toEqual({ valid: true });
    expect(await hidden.handler({ q: 'rain', tenant: 'evil' }, context)).toEqual({ q: 'rain', tenant: 'acme' });
  });
});

describe('transformTool', () => {
  it('applies the transforms in order', async () => {
    const tool = transformTool(searchTool(), [namespaceTools('docs'), renameArguments({ q: 'query' }), hideArguments({ tenant: 't1' })]);
    expect(tool.name).toBe('docs_search');
    expect(Object.keys(tool.descriptor.inputSchema.properties as object)).toEqual(['query', 'limit']);
    expect(await tool.handler({ query: 'snow' }, context)).toEqual({ q: 'snow', tenant: 't1' });
  });
});
