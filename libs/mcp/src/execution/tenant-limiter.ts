import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { MCP_RESOLVED_OPTIONS } from '../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_STORE, type McpKeyValueStore } from '../stores/key-value.store.js';
import { tenantSlotKey } from '../stores/store-key.js';

/** A granted call slot (release it when the call ends), or a refusal with the time to wait. */
export type CallPermit = { granted: true; release: () => Promise<void> } | { granted: false; retryAfterMs: number; reason: string };

/** How long past its timeout a call keeps its slot: validation and idempotency bookkeeping run outside the timeout. */
export const CALL_LEASE_GRACE_MS = 5_000;
/** A refusal by the concurrency cap: the slot is likely to free within a call's duration. */
const CONCURRENCY_RETRY_AFTER_MS = 100;
/** Tenants whose keys are remembered; past this many the memo starts over (bounded memory, whatever the tenants). */
const KEY_MEMO_SIZE = 1_000;
/** Slot members: unique across the instances sharing a store (this prefix) and within one (the counter), cheaper than a UUID per call. */
const MEMBER_PREFIX = `${randomUUID()}:`;
let memberCount = 0;

/**
 * Per-tenant fairness: a cap on concurrent tool calls (`limits.maxConcurrentCallsPerTenant`) and an optional
 * fixed-window rate limit (`limits.rateLimit`), so one tenant cannot starve the others. Both are counted in the
 * store by one atomic call per admission (`admit`): in this process's memory without `redis`, in Redis with it,
 * so the limits hold for the whole deployment however many instances share it.
 *
 * A call's slot expires after the call's timeout plus {@link CALL_LEASE_GRACE_MS}, so it comes back by itself when
 * the instance running the call dies. Keys `calls:{<tenant>}` and `rate:{<tenant>}` share one hash tag per tenant
 * so the script stays on one Redis Cluster slot.
 */
@Injectable()
export class McpTenantLimiter {
  constructor(
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
    @Inject(MCP_STORE) private readonly store: McpKeyValueStore,
  ) {}

  /** Each tenant's `calls:{<tenant>}` and `rate:{<tenant>}` keys: escaping them on every call showed in profiles. */
  private readonly keys = new Map<string, { slots: string; window: string }>();

  /** Takes a call slot for `tenant` for a call that may run `timeoutMs`; rejects only when the store does. */
  async acquire(tenant: string, timeoutMs = this.options.tools.timeoutMs): Promise<CallPermit> {
    const { maxConcurrentCallsPerTenant, rateLimit } = this.options.limits;
    const { slots, window: windowKey } = this.keysOf(tenant);
    const member = MEMBER_PREFIX + (memberCount++).toString(36);
    const window = rateLimit && { key: windowKey, limit: rateLimit.limit, ms: rateLimit.windowMs };
    const admission = await this.store.admit(
      member,
      window,
      [{ key: slots, limit: maxConcurrentCallsPerTenant }],
      timeoutMs + CALL_LEASE_GRACE_MS,
    );
    if (!admission.admitted) {
      return admission.fullWindow
        ? {
            granted: false,
            retryAfterMs: admission.retryAfterMs,
            reason: `more than ${rateLimit!.limit} calls in ${rateLimit!.windowMs} ms`,
          }
        : { granted: false, retryAfterMs: CONCURRENCY_RETRY_AFTER_MS, reason: `more than ${maxConcurrentCallsPerTenant} calls at once` };
    }
    let released: Promise<void> | undefined;
    return {
      granted: true,
      // Once only; a store that cannot be told leaves the slot to its lease.
      release: () => (released ??= this.store.releaseSlot(member, [slots]).catch(() => undefined)),
    };
  }

  private keysOf(tenant: string): { slots: string; window: string } {
    let keys = this.keys.get(tenant);
    if (!keys) {
      if (this.keys.size >= KEY_MEMO_SIZE) this.keys.clear();
      keys = { slots: tenantSlotKey('calls', tenant), window: tenantSlotKey('rate', tenant) };
      this.keys.set(tenant, keys);
    }
    return keys;
  }
}
