import { resolveMcpOptions, resolvePaths } from '../options/mcp-options.resolver.js';
import { McpMemoryStore } from './memory.store.js';
import { McpQuotaExceededError } from '../core/errors/quota-exceeded.error.js';
import { McpTenantQuotas } from './tenant-quotas.js';

const options = resolveMcpOptions(
  {
    name: 'quotas',
    version: '1.0.0',
    limits: { maxStoredKeysPerTenant: 5, maxSessionsPerTenant: 3 },
    idempotency: { maxKeysPerTenant: 4 },
  },
  resolvePaths({}),
);

describe('McpTenantQuotas', () => {
  let store: McpMemoryStore;
  let quotas: McpTenantQuotas;

  beforeEach(() => {
    store = new McpMemoryStore();
    quotas = new McpTenantQuotas(store, options);
  });

  afterEach(() => store.close());

  it("names the full quota for the tenant over it, and leaves every other tenant's room alone", async () => {
    for (let index = 0; index < 4; index++) expect(await quotas.reserve('a', 'idempotency', `idem-${index}`, 60_000)).toBeUndefined();
    expect(await quotas.reserve('a', 'idempotency', 'idem-4', 60_000)).toBe('idempotency.maxKeysPerTenant');
    expect(await quotas.reserve('a', 'session', 'session-1', 60_000)).toBeUndefined();
    expect(await quotas.reserve('a', 'session', 'session-2', 60_000)).toBe('limits.maxStoredKeysPerTenant');
    expect(await quotas.reserve('b', 'session', 'session-1', 60_000)).toBeUndefined();
    expect(await quotas.reserve('b', 'idempotency', 'idem-0', 60_000)).toBeUndefined();
  });

  it('require refuses with a retryable QUOTA_EXCEEDED that names the option and its size, not the tenant', async () => {
    for (let index = 0; index < 5; index++) await quotas.require('tenant-secret-name', 'job', `job-${index}`, 60_000);
    const refusal = await quotas.require('tenant-secret-name', 'job', 'job-5', 60_000).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(McpQuotaExceededError);
    const body = (refusal as McpQuotaExceededError).toErrorBody();
    expect(body).toMatchObject({ code: 'QUOTA_EXCEEDED', retryable: true, retry_after_ms: expect.any(Number) });
    expect(body.message).toContain('5 records (limits.maxStoredKeysPerTenant)');
    expect(body.message).not.toContain('tenant-secret-name');
  });

  it('a released record frees its place in every quota it counted in', async () => {
    for (let index = 0; index < 3; index++) await quotas.reserve('a', 'session', `session-${index}`, 60_000);
    expect(await quotas.reserve('a', 'session', 'session-3', 60_000)).toBe('limits.maxSessionsPerTenant');
    await quotas.release('a', 'session', 'session-0');
    expect(await quotas.reserve('a', 'session', 'session-3', 60_000)).toBeUndefined();
  });
});
