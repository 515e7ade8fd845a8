import { Inject, Injectable } from '@nestjs/common';
import { MCP_RESOLVED_OPTIONS } from '../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_STORE, type McpKeyValueStore, type McpSlotSet } from './key-value.store.js';
import { McpQuotaExceededError } from '../core/errors/quota-exceeded.error.js';
import { tenantSlotKey } from './store-key.js';

/** The records a tenant creates in the store, each counted against its tenant's quotas. */
export type McpTenantRecordKind = 'session' | 'job' | 'idempotency';

/** A per-tenant quota, named by the option that sets it. */
export type McpTenantQuotaOption = 'limits.maxStoredKeysPerTenant' | 'limits.maxSessionsPerTenant' | 'idempotency.maxKeysPerTenant';

const QUOTAS_OF: Record<McpTenantRecordKind, readonly McpTenantQuotaOption[]> = {
  session: ['limits.maxSessionsPerTenant', 'limits.maxStoredKeysPerTenant'],
  job: ['limits.maxStoredKeysPerTenant'],
  idempotency: ['idempotency.maxKeysPerTenant', 'limits.maxStoredKeysPerTenant'],
};

/**
 * Per-tenant quotas on the sessions, job and idempotency records the store holds: a flooding tenant is refused
 * (`QUOTA_EXCEEDED`, retryable) instead of pushing anyone else's data out. Each quota is a slot set per tenant
 * (`reserveSlot`, members carrying the record's TTL), so it holds across instances with Redis and needs no scan.
 */
@Injectable()
export class McpTenantQuotas {
  constructor(
    @Inject(MCP_STORE) private readonly store: McpKeyValueStore,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
  ) {}

  /** Counts the record under `key` for `ttlMs` (again: refreshes it); resolves with the full quota's option, or undefined. */
  async reserve(tenant: string, kind: McpTenantRecordKind, key: string, ttlMs: number): Promise<McpTenantQuotaOption | undefined> {
    const quotas = QUOTAS_OF[kind];
    const sets: McpSlotSet[] = quotas.map((quota) => ({ key: setKey(quota, tenant), limit: LIMIT_OF[quota](this.options) }));
    const full = await this.store.reserveSlot(key, sets, ttlMs);
    return full < 0 ? undefined : quotas[full];
  }

  /** {@link reserve}, refusing with `McpQuotaExceededError` when a quota is full. */
  async require(tenant: string, kind: McpTenantRecordKind, key: string, ttlMs: number): Promise<void> {
    const full = await this.reserve(tenant, kind, key, ttlMs);
    if (full) throw this.refusal(full);
  }

  /** The error that refuses a record because `quota` is full. */
  refusal(quota: McpTenantQuotaOption): McpQuotaExceededError {
    return new McpQuotaExceededError(quotaMessage(quota, LIMIT_OF[quota](this.options)));
  }

  /** Keeps the record under `key` and its quota places alive for `ttlMs` (one store call); false when it is gone. */
  touch(tenant: string, kind: McpTenantRecordKind, key: string, ttlMs: number): Promise<boolean> {
    return this.store.touch(key, ttlMs, { member: key, setKeys: QUOTAS_OF[kind].map((quota) => setKey(quota, tenant)) });
  }

  /** Uncounts a deleted record. */
  release(tenant: string, kind: McpTenantRecordKind, key: string): Promise<void> {
    return this.store.releaseSlot(
      key,
      QUOTAS_OF[kind].map((quota) => setKey(quota, tenant)),
    );
  }
}

const LIMIT_OF: Record<McpTenantQuotaOption, (options: McpResolvedOptions) => number> = {
  'limits.maxStoredKeysPerTenant': (options) => options.limits.maxStoredKeysPerTenant,
  'limits.maxSessionsPerTenant': (options) => options.limits.maxSessionsPerTenant,
  'idempotency.maxKeysPerTenant': (options) => options.idempotency.maxKeysPerTenant,
};

/** `quota:{<tenant>}:<quota>`: one hash tag per tenant, so the atomic script over a tenant's sets stays on one Redis Cluster slot. */
function setKey(quota: McpTenantQuotaOption, tenant: string): string {
  return tenantSlotKey('quota', tenant, quota);
}

/** The caller-facing text of a refusal: which quota, its size, and that waiting helps (no tenant name echoed). */
function quotaMessage(quota: McpTenantQuotaOption, limit: number): string {
  return `This tenant holds its quota of ${limit} records (${quota}); retry once some have expired or been deleted.`;
}
