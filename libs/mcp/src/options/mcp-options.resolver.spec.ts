import { McpConfigurationError } from '../core/errors/mcp-configuration.error.js';
import { resolveMcpOptions, resolvePaths } from './mcp-options.resolver.js';
import type { McpModuleOptions } from './mcp-module-options.interface.js';

const paths = resolvePaths({});
const resolve = (options: object) => resolveMcpOptions({ name: 'keys', version: '1.0.0', ...options } as McpModuleOptions, paths);

function messageOf(options: object): string {
  try {
    resolve(options);
  } catch (error) {
    expect(error).toBeInstanceOf(McpConfigurationError);
    return (error as Error).message;
  }
  throw new Error('expected the options to be refused');
}

describe('resolveMcpOptions: unknown option keys', () => {
  it.each([
    [{ sesions: { mode: 'stateless' } }, '"sesions"', '"sessions"'],
    [{ limits: { maxSesionsPerTenant: 5 } }, '"limits.maxSesionsPerTenant"', '"limits.maxSessionsPerTenant"'],
    [{ limits: { rateLimit: { limit: 1, window: 10 } } }, '"limits.rateLimit.window"', '"limits.rateLimit.windowMs"'],
    [{ auth: { jwt: { secret: 'x'.repeat(32), requireExpiry: false } } }, '"auth.jwt.requireExpiry"', '"auth.jwt.requireExp"'],
    [{ auth: { apiKeys: [{ key: 'k'.repeat(16), tenant: 't', scope: ['a'] }] } }, '"auth.apiKeys[0].scope"', '"auth.apiKeys[0].scopes"'],
    [{ lists: { listChanged: { tool: true } } }, '"lists.listChanged.tool"', '"lists.listChanged.tools"'],
    [{ requestState: { ttl: 1000 } }, '"requestState.ttl"', '"requestState.ttlMs"'],
    [{ http: { streams: { maxBufferBytes: 1 } } }, '"http.streams.maxBufferBytes"', '"http.streams.maxBufferedBytes"'],
    [{ jobs: { concurency: 2 } }, '"jobs.concurency"', '"jobs.concurrency"'],
    [{ tols: { timeoutMs: 5 } }, '"tols"', '"tools"'],
    [{ tools: { timeout: 5 } }, '"tools.timeout"', '"tools.timeoutMs"'],
    [{ observability: { metric: {} } }, '"observability.metric"', '"observability.metrics"'],
  ])('%j names the key and the nearest valid one', (options, unknown, suggestion) => {
    const message = messageOf(options);
    expect(message).toContain(unknown);
    expect(message).toContain(`did you mean ${suggestion}?`);
  });

  it('lists the valid keys of the level when none is close', () => {
    const message = messageOf({ redis: { url: 'redis://localhost:6379', zzzzzzzz: 1 } });
    expect(message).toContain('"redis.zzzzzzzz" is unknown');
    expect(message).toContain('redis.url, redis.keyPrefix, redis.cluster, redis.instanceLease');
  });

  it('accepts every documented key, including the extras forRoot() passes through', () => {
    expect(() =>
      resolve({
        path: '/mcp',
        isGlobal: false,
        ssePath: '/sse',
        messagesPath: '/messages',
        http: { streams: { maxBufferedBytes: 1024, keepAliveMs: 1000 }, publicUrl: 'https://mcp.example.com', maxBodyBytes: 1024 },
        tools: { timeoutMs: 1000, hideGuarded: true, search: { mode: 'beside' } },
        sources: { routes: [], openapi: [] },
        observability: { tracing: { enabled: false } },
        limits: { maxStoredKeysPerTenant: 10, rateLimit: { limit: 1, windowMs: 1000 } },
        idempotency: { ttlMs: 1000, maxKeysPerTenant: 10 },
        jobs: { maxQueuedPerTenant: 10, concurrency: 2 },
        auth: {
          jwt: { secret: 'x'.repeat(32), requireExp: true, maxTokenLifetimeSec: 3600 },
          resourceMetadata: { resource: 'https://a.example/mcp', authorizationServers: ['https://as.example'] },
        },
        requestState: { secret: 's'.repeat(32), ttlMs: 1000 },
        lists: { pageSize: 10, listChanged: { tools: true, prompts: true, resources: true } },
      }),
    ).not.toThrow();
  });

  it('does not look inside class instances the user passes (an authenticator with its own fields)', () => {
    class TeamAuthenticator {
      readonly anyField = 1;
      async authenticate() {
        return undefined;
      }
    }
    expect(() => resolve({ auth: { authenticator: new TeamAuthenticator() } })).not.toThrow();
  });

  it('bounds an absurdly long unknown key in the message', () => {
    expect(messageOf({ ['x'.repeat(10_000)]: 1 }).length).toBeLessThan(1_000);
  });
});

describe('resolveMcpOptions: requestState and lists.listChanged', () => {
  it('defaults: no secret (a random key per process), a 10-minute round, no list announced', () => {
    const resolved = resolve({});
    expect(resolved.requestState).toEqual({ secret: undefined, ttlMs: 600_000 });
    expect(resolved.lists.listChanged).toEqual({ tools: false, prompts: false, resources: false });
  });

  it('keeps a valid secret and TTL, and each list set to true', () => {
    const resolved = resolve({
      requestState: { secret: 's'.repeat(32), ttlMs: 60_000 },
      lists: { listChanged: { prompts: true, tools: false } },
    });
    expect(resolved.requestState).toEqual({ secret: 's'.repeat(32), ttlMs: 60_000 });
    expect(resolved.lists.listChanged).toEqual({ tools: false, prompts: true, resources: false });
  });

  it('refuses a secret shorter than 32 characters, naming requestState.secret without echoing it', () => {
    const message = messageOf({ requestState: { secret: 'short-secret' } });
    expect(message).toContain('"requestState.secret"');
    expect(message).not.toContain('short-secret');
  });

  it.each([
    [{ requestState: { ttlMs: 0 } }, '"requestState.ttlMs"'],
    [{ requestState: 'secret' }, '"requestState" must be an object'],
    [{ lists: { listChanged: true } }, '"lists.listChanged" must be an object'],
    [{ lists: 100 }, '"lists" must be an object'],
    [{ http: 'https://mcp.example.com' }, '"http" must be an object'],
  ])('%j is refused: %s', (options, text) => {
    expect(messageOf(options)).toContain(text);
  });

  it('refuses the option group `modern` of earlier releases, saying what replaced each of its keys', () => {
    const message = messageOf({ modern: { requestStateSecret: 's'.repeat(32), requestStateTtlMs: 1000, listChanged: { tools: true } } });
    expect(message).toContain('McpModule option "modern" is no longer accepted');
    expect(message).toContain('split into "requestState"');
    expect(message).toContain('"lists.listChanged"');
    expect(message).not.toContain('s'.repeat(32));
  });
});

describe('resolveMcpOptions: redis.instanceLease', () => {
  const lease = (instanceLease?: object) =>
    resolve({ redis: { url: 'redis://localhost:6379', ...(instanceLease && { instanceLease }) } }).redis?.instanceLease;

  it('defaults to a 5 s lease renewed every 1.5 s; a short ttl alone gets a renewal within it', () => {
    expect(lease()).toEqual({ ttlMs: 5_000, renewMs: 1_500 });
    expect(lease({ ttlMs: 900 })).toEqual({ ttlMs: 900, renewMs: 300 });
  });

  it('refuses a renewal interval that is not below the ttl, naming both', () => {
    const redis = (instanceLease: object) => ({ redis: { url: 'redis://localhost:6379', instanceLease } });
    expect(messageOf(redis({ ttlMs: 1_000, renewMs: 1_000 }))).toContain(
      '"redis.instanceLease.renewMs" must be below redis.instanceLease.ttlMs',
    );
    expect(messageOf(redis({ ttlMs: 1_000, renwMs: 100 }))).toContain('"redis.instanceLease.renwMs" is unknown');
  });
});

describe('resolveMcpOptions: http.streams.maxEventBytesPerStream', () => {
  it('defaults to 8 MiB (twice maxBufferedBytes) beside the count bound, and takes a positive whole number of bytes', () => {
    expect(resolve({}).http.streams).toMatchObject({ maxEventsPerStream: 1_000, maxEventBytesPerStream: 8_388_608 });
    expect(resolve({ http: { streams: { maxEventBytesPerStream: 64 * 1024 } } }).http.streams.maxEventBytesPerStream).toBe(65_536);
  });

  it.each([0, -1, 1.5, Number.NaN, '4MiB'])('refuses %p at boot, naming the option', (value) => {
    expect(messageOf({ http: { streams: { maxEventBytesPerStream: value } } })).toContain(
      '"http.streams.maxEventBytesPerStream" must be a positive integer',
    );
  });
});

describe('resolveMcpOptions: the gateway announces its lists', () => {
  it('turns every lists.listChanged on with sources.upstreams, keeping lists.pageSize', () => {
    const resolved = resolve({ sources: { upstreams: [{ name: 'up', url: 'http://127.0.0.1:1/mcp' }] }, lists: { pageSize: 7 } });
    expect(resolved.lists).toEqual({ pageSize: 7, listChanged: { tools: true, prompts: true, resources: true } });
  });
});

describe('resolveMcpOptions: one key space per server', () => {
  const redisAt = (path: string, keyPrefix?: string) =>
    resolveMcpOptions({ name: 'keys', version: '1.0.0', redis: { url: 'redis://localhost:6379', keyPrefix } }, resolvePaths({ path })).redis
      ?.keyPrefix;

  it('keeps "mcp:" at the default path /mcp, so existing deployments keep their keys', () => {
    expect(redisAt('/mcp')).toBe('mcp:');
    expect(redisAt('mcp/')).toBe('mcp:');
  });

  it('derives the default from any other path, and a given keyPrefix wins', () => {
    expect(redisAt('/admin/mcp')).toBe('mcp:admin/mcp:');
    expect(redisAt('/public')).toBe('mcp:public:');
    expect(redisAt('/admin/mcp', 'admin:')).toBe('admin:');
  });
});

describe('resolvePaths: include and wellKnownRoot', () => {
  class SomeModule {}

  it('defaults to every module and the host-level documents', () => {
    expect(resolvePaths({})).toMatchObject({ include: undefined, wellKnownRoot: true });
    expect(resolvePaths({ include: [SomeModule], wellKnownRoot: false })).toMatchObject({ include: [SomeModule], wellKnownRoot: false });
  });

  it.each([
    [{ include: SomeModule }, '"include" must be an array of module classes'],
    [{ include: ['SomeModule'] }, '"include" must be an array of module classes'],
    [{ wellKnownRoot: 'no' }, '"wellKnownRoot" must be a boolean'],
  ])('%p is refused: %s', (extras, text) => {
    expect(() => resolvePaths(extras as never)).toThrow(text);
  });
});
