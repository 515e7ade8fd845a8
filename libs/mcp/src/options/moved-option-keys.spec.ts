import { McpConfigurationError } from '../core/errors/mcp-configuration.error.js';
import { MCP_MODULE_OPTIONS } from './declarations/module.options.js';
import { MOVED_OPTION_KEYS } from './mcp-option-keys.js';
import { resolveMcpOptions, resolvePaths } from './mcp-options.resolver.js';
import type { McpModuleOptions } from './mcp-module-options.interface.js';
import type { McpOptionMembers } from './option.builder.js';

const REDIS_URL = 'redis://localhost:6379';
const resolve = (options: object) =>
  resolveMcpOptions({ name: 'moved', version: '1.0.0', ...options } as McpModuleOptions, resolvePaths({}));

/** Every top-level key of 0.1.0 that moved in 0.2.0, with a value it accepts: the whole table of the CHANGELOG. */
const MOVES: Array<[string, string, unknown]> = [
  ['publicUrl', 'http.publicUrl', 'https://mcp.example.com'],
  ['trustProxy', 'http.trustProxy', true],
  ['allowedOrigins', 'http.allowedOrigins', ['https://app.example.com']],
  ['allowedHosts', 'http.allowedHosts', ['localhost']],
  ['maxBodyBytes', 'http.maxBodyBytes', 2048],
  ['streams', 'http.streams', { keepAliveMs: 1_000 }],
  ['toolTimeoutMs', 'tools.timeoutMs', 1_000],
  ['toolFilters', 'tools.filters', []],
  ['transforms', 'tools.transforms', []],
  ['toolSearch', 'tools.search', { mode: 'beside' }],
  ['hideGuardedTools', 'tools.hideGuarded', true],
  ['routes', 'sources.routes', []],
  ['openapi', 'sources.openapi', []],
  ['upstreams', 'sources.upstreams', []],
  ['pageSize', 'lists.pageSize', 5],
  ['listChanged', 'lists.listChanged', { tools: true }],
  ['instanceLease', 'redis.instanceLease', { ttlMs: 900 }],
  ['metrics', 'observability.metrics', { enabled: false }],
  ['tracing', 'observability.tracing', { enabled: false }],
];

/** `{ tools: { timeoutMs: value } }` for `tools.timeoutMs` (a Redis URL beside `redis.*`, which needs one). */
function atPath(path: string, value: unknown): object {
  const [group, key] = path.split('.');
  return { [group]: { ...(group === 'redis' && { url: REDIS_URL }), [key]: value } };
}

function refusal(options: object): McpConfigurationError {
  try {
    resolve(options);
  } catch (error) {
    expect(error).toBeInstanceOf(McpConfigurationError);
    return error as McpConfigurationError;
  }
  throw new Error('expected the options to be refused');
}

describe('options moved in 0.2.0', () => {
  it('the table covers every moved key, and only those', () => {
    expect(Object.fromEntries(MOVES.map(([from, to]) => [from, to]))).toEqual(MOVED_OPTION_KEYS);
  });

  it.each(MOVES)('%s fails the boot with MCP_ERR_OPTION_MOVED naming %s', (from, to, value) => {
    const error = refusal({ [from]: value });
    expect(error.code).toBe('MCP_ERR_OPTION_MOVED');
    expect(error.message).toBe(
      `McpModule option "${from}" moved to "${to}" (0.2.0): write { ${to.split('.')[0]}: { ${to.split('.')[1]}: ... } } instead.`,
    );
  });

  it.each(MOVES)('%s is accepted at %s, where the library reads it', (_from, to, value) => {
    const resolved = resolve(atPath(to, value)) as unknown as Record<string, Record<string, unknown>>;
    const [group, key] = to.split('.');
    if (typeof value !== 'object' || Array.isArray(value)) expect(resolved[group][key]).toEqual(value);
    else expect(resolved[group][key]).toMatchObject(value as object);
  });

  it('every new path is declared (the known-key check and the resolver walk it)', () => {
    const declared = (path: string): boolean => {
      let members: McpOptionMembers<never> | undefined = MCP_MODULE_OPTIONS.members;
      for (const key of path.split('.')) {
        if (!members || !Object.hasOwn(members, key)) return false;
        members = members[key].members ?? members[key].each;
      }
      return true;
    };
    expect(Object.values(MOVED_OPTION_KEYS).filter((path) => !declared(path))).toEqual([]);
  });
});
