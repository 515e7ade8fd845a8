import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import type { McpToolDefinition } from '../tools/mcp-tool-definition.interface.js';
import { hideToolArguments, renameToolArguments } from './arguments.transform.js';
import {
  describeTool,
  hideArguments,
  namespaceTools,
  renameArguments,
  renameTool,
  type McpToolTransformation,
} from '../../options/mcp-tool-transformation.js';
import { namespaceTool } from './namespace.transform.js';
import { applyToolTransformations } from './tool-transformations.applier.js';
import { thrown } from '../../../../../test/kit/boot-mcp.js';
import { NO_ARGUMENTS_VALIDATOR } from '../../execution/validation/fixed-argument.validators.js';

const inputSchema = {
  type: 'object',
  properties: { q: { type: 'string', minLength: 2 }, tenant: { type: 'string' }, limit: { type: 'integer' } },
  required: ['q', 'tenant'],
  additionalProperties: false,
};

class SearchTools {}
class BillingTools {}

/** A tool as a source yields it: its schema, declaring class and an idempotency key. */
function tool(name = 'search', overrides: Partial<McpToolDefinition> = {}): McpToolDefinition {
  return {
    name,
    site: `Upstream#${name}`,
    descriptor: { name, description: `Does ${name}`, inputSchema },
    validator: NO_ARGUMENTS_VALIDATOR,
    timeoutMs: 1000,
    scopes: [],
    idempotencyKey: 'limit',
    declaredBy: SearchTools,
    handler: async (args) => args,
    ...overrides,
  };
}

const codeOf = (run: () => unknown) => (thrown(run) as McpConfigurationError).code;
const properties = (shaped: McpToolDefinition) => Object.keys(shaped.descriptor.inputSchema.properties as object);

describe('renameToolArguments', () => {
  const renamed = renameToolArguments({ q: 'query' }, 'transforms[0]')(tool());

  it('shows the new names in the schema and required list, keeping the other keywords', () => {
    expect(properties(renamed)).toEqual(['query', 'tenant', 'limit']);
    expect(renamed.descriptor.inputSchema.required).toEqual(['query', 'tenant']);
    expect(renamed.descriptor.inputSchema.additionalProperties).toBe(false);
  });

  it('maps what the caller sends back to the tool, dropping a key under the old name', () => {
    expect(renamed.toToolArgs!({ query: 'rain', tenant: 'acme', q: 'sneaky' })).toEqual({ q: 'rain', tenant: 'acme' });
  });

  it('names a failing field, nested too, as the caller sees it', () => {
    expect(renamed.toCallerField!('q')).toBe('query');
    expect(renamed.toCallerField!('q.0.x')).toBe('query.0.x');
    expect(renamed.toCallerField!('tenant')).toBe('tenant');
  });

  it('swaps two names', () => {
    const swapped = renameToolArguments({ q: 'tenant', tenant: 'q' }, 'transforms[0]')(tool());
    expect(swapped.toToolArgs!({ q: 'acme', tenant: 'rain' })).toEqual({ q: 'rain', tenant: 'acme' });
  });

  it('refuses an argument the tool does not take, and a name another argument has', () => {
    expect(codeOf(() => renameToolArguments({ nope: 'x' }, 'transforms[0]')(tool()))).toBe('MCP_ERR_TRANSFORM_ARGUMENT_UNKNOWN');
    expect(codeOf(() => renameToolArguments({ q: 'limit' }, 'transforms[0]')(tool()))).toBe('MCP_ERR_TRANSFORM_ARGUMENT_CLASH');
  });
});

describe('hideToolArguments', () => {
  const hidden = hideToolArguments({ tenant: 'acme', limit: undefined }, 'transforms[1]')(tool('search', { idempotencyKey: undefined }));

  it('removes the arguments from the schema and its required list', () => {
    expect(properties(hidden)).toEqual(['q']);
    expect(hidden.descriptor.inputSchema.required).toEqual(['q']);
  });

  it('fixes the values over what a caller sends, and drops a hidden argument without a value', () => {
    expect(hidden.toToolArgs!({ q: 'rain', tenant: 'evil', limit: 5 })).toEqual({ q: 'rain', tenant: 'acme' });
  });

  it('gives each call its own copy of a fixed object', () => {
    const shaped = hideToolArguments({ tenant: { id: 'acme' } }, 'transforms[0]')(tool());
    const first = shaped.toToolArgs!({ q: 'a' });
    (first.tenant as { id: string }).id = 'changed';
    expect(shaped.toToolArgs!({ q: 'b' }).tenant).toEqual({ id: 'acme' });
  });

  it('refuses a required argument without a value, the idempotency key and an unknown argument', () => {
    expect(codeOf(() => hideToolArguments({ tenant: undefined }, 'transforms[0]')(tool()))).toBe(
      'MCP_ERR_TRANSFORM_REQUIRED_ARGUMENT_HIDDEN',
    );
    expect(codeOf(() => hideToolArguments({ limit: 3 }, 'transforms[0]')(tool()))).toBe('MCP_ERR_TRANSFORM_IDEMPOTENCY_KEY_HIDDEN');
    expect(codeOf(() => hideToolArguments({ nope: 1 }, 'transforms[0]')(tool()))).toBe('MCP_ERR_TRANSFORM_ARGUMENT_UNKNOWN');
  });
});

describe('argument transforms composed', () => {
  it('maps through every transform, the latest first, and names fields through all of them', () => {
    const shaped = [
      renameToolArguments({ q: 'query' }, 'transforms[0]'),
      hideToolArguments({ tenant: 't1' }, 'transforms[1]'),
      renameToolArguments({ query: 'text' }, 'transforms[2]'),
      namespaceTool('docs'),
    ].reduce((shaped, transform) => transform(shaped), tool());
    expect(shaped.name).toBe('docs_search');
    expect(properties(shaped)).toEqual(['text', 'limit']);
    expect(shaped.toToolArgs!({ text: 'snow', tenant: 'evil' })).toEqual({ q: 'snow', tenant: 't1' });
    expect(shaped.toCallerField!('q')).toBe('text');
  });
});

describe('applyToolTransformations', () => {
  const tools = [tool('search'), tool('invoice_list', { declaredBy: BillingTools }), tool('invoice_get', { declaredBy: BillingTools })];
  const apply = (...transformations: McpToolTransformation[]) => applyToolTransformations(tools, transformations);
  const names = (shaped: McpToolDefinition[]) => shaped.map((shapedTool) => shapedTool.name);

  it('renames a tool, keeps the others and the order, and leaves the site', () => {
    const shaped = apply(renameTool('search', 'find'));
    expect(names(shaped)).toEqual(['find', 'invoice_list', 'invoice_get']);
    expect(shaped[0]).toMatchObject({ site: 'Upstream#search', descriptor: { name: 'find' } });
  });

  it('rewrites descriptions by glob, with a text or a function of the current one', () => {
    const shaped = apply(
      describeTool('invoice_*', (text) => `${text} (billing)`),
      describeTool('search', 'Finds things'),
    );
    expect(shaped.map((shapedTool) => shapedTool.descriptor.description)).toEqual([
      'Finds things',
      'Does invoice_list (billing)',
      'Does invoice_get (billing)',
    ]);
  });

  it('namespaces the tools a provider declares, or all but the excluded ones', () => {
    expect(names(apply(namespaceTools('billing', { include: { provider: BillingTools } })))).toEqual([
      'search',
      'billing_invoice_list',
      'billing_invoice_get',
    ]);
    expect(names(apply(namespaceTools('x', { exclude: ['search', 'invoice_get'] })))).toEqual(['search', 'x_invoice_list', 'invoice_get']);
  });

  it('picks tools by their names after the transforms before it', () => {
    const shaped = apply(
      renameTool('search', 'find'),
      hideArguments('find', { tenant: 'acme' }),
      renameArguments(['find'], { q: 'query' }),
    );
    expect(properties(shaped[0])).toEqual(['query', 'limit']);
  });

  it('refuses a selector that picks no tool, naming the transform and the tools there are', () => {
    const error = thrown(() => apply(renameTool('serch', 'find'))) as McpConfigurationError;
    expect(error.code).toBe('MCP_ERR_TRANSFORM_TOOL_UNKNOWN');
    expect(error.message).toContain('"tools.transforms[0]"');
    expect(error.message).toContain('"serch"');
    expect(error.message).toContain('search, invoice_list, invoice_get');
    expect(codeOf(() => apply(describeTool('report_*', 'x')))).toBe('MCP_ERR_TRANSFORM_TOOL_UNKNOWN');
    expect(codeOf(() => apply(hideArguments({ provider: class Nobody {} }, { tenant: 'a' })))).toBe('MCP_ERR_TRANSFORM_TOOL_UNKNOWN');
  });

  it('refuses two tools ending with one name, naming both', () => {
    const error = thrown(() =>
      apply(renameTool('invoice_list', 'invoices'), renameTool('invoice_get', 'invoices')),
    ) as McpConfigurationError;
    expect(error.code).toBe('MCP_ERR_TRANSFORM_NAME_CLASH');
    expect(error.message).toContain('Upstream#invoice_list and Upstream#invoice_get');
    expect(codeOf(() => apply(renameTool('search', 'invoice_get')))).toBe('MCP_ERR_TRANSFORM_NAME_CLASH');
  });

  it('leaves a clash it did not cause to the registry', () => {
    expect(names(applyToolTransformations([tool('a'), tool('a')], [describeTool('a', 'x')]))).toEqual(['a', 'a']);
  });

  it('refuses values the transform functions did not build', () => {
    const bad = [
      { kind: 'renameTool', tool: 'search_*', name: 'x' },
      { kind: 'describeTool', tools: 'search', description: ' ' },
      { kind: 'hideArguments', tools: 'search', arguments: {} },
      { kind: 'renameArguments', tools: [], names: { q: 'query' } },
      { kind: 'namespaceTools', namespace: '' },
      { kind: 'somethingElse' },
      'renameTool',
    ];
    for (const value of bad) expect(codeOf(() => apply(value as unknown as McpToolTransformation))).toBe('MCP_ERR_TRANSFORM_INVALID');
    expect(codeOf(() => apply(renameTool('search', 'bad name')))).toBe('MCP_ERR_TOOL_NAME_INVALID');
  });
});
