import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { MCP_RESOLVED_OPTIONS } from '../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import type { McpCallToolResult } from '../core/results/content.types.js';
import { errorResult } from '../core/results/mcp-result.js';
import { isRetryableByDefault } from '../core/errors/error-codes.js';
import { errorBody } from '../core/errors/mcp-tool.error.js';
import { MCP_STORE, type McpKeyValueStore } from '../stores/key-value.store.js';
import { storeKey } from '../stores/store-key.js';
import { McpTenantQuotas } from '../stores/tenant-quotas.js';
import { McpInstanceLease } from '../sessions/mcp-instance-lease.service.js';

/** What is stored under an idempotency key. */
interface IdempotencyRecord {
  state: 'running' | 'done';
  fingerprint: string;
  /** The instance (lease id) running the call, across instances only; records of older releases have none. */
  holder?: string;
  result?: McpCallToolResult;
}

const POLL_INTERVAL_MS = 25;
/** A claim outlives the longest run by this much: the bound on a dead holder that no lease tells of (an older release's record). */
const CLAIM_MARGIN_MS = 5_000;

/**
 * Idempotency keys: the first call with a key runs; later calls with the same key, tool and tenant
 * get the first call's result without running again — also when they arrive at the same time (one runs, the
 * others wait) or on another instance (the claim is an atomic set-if-absent in the shared store). The same key
 * with different arguments is `IDEMPOTENCY_KEY_REUSED`. Only a completed call is remembered: when the first call
 * fails (throws, INTERNAL_ERROR, TIMEOUT, CANCELLED, UNAVAILABLE, anything retryable) the key is released and
 * the next call with it runs again, so a failure is never replayed for the key's lifetime.
 *
 * Across instances the running record names its holder's lease: a waiting call checks it once per renewal and,
 * once the holder is dead, takes the claim over (a compare-and-set: one waiter wins) and runs the call itself.
 */
@Injectable()
export class McpIdempotency {
  constructor(
    @Inject(MCP_STORE) private readonly store: McpKeyValueStore,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
    private readonly quotas: McpTenantQuotas,
    private readonly lease: McpInstanceLease,
  ) {}

  async run(
    input: { tenant: string; tool: string; key: string; args: Record<string, unknown>; waitMs: number },
    execute: () => Promise<McpCallToolResult>,
  ): Promise<McpCallToolResult> {
    // Tenant, tool and client key escaped, so tenant `a:b` and tenant `a` never share a record.
    const recordKey = storeKey('idem', input.tenant, input.tool, input.key);
    const fingerprint = fingerprintOf(input.args);
    const claimTtlMs = input.waitMs + CLAIM_MARGIN_MS;
    const claim = this.claimOf(fingerprint);
    if (await this.store.setIfAbsent<IdempotencyRecord>(recordKey, claim, claimTtlMs))
      return this.runClaimed(input.tenant, recordKey, claim, claimTtlMs, execute);
    const deadline = Date.now() + input.waitMs;
    let nextLeaseCheck = 0; // the first read checks at once: the holder may have died long ago
    for (;;) {
      const existing = await this.store.get<IdempotencyRecord>(recordKey);
      if (!existing) return this.run(input, execute); // the first call failed or expired: run now
      if (existing.fingerprint !== fingerprint) {
        return errorResult(
          errorBody(
            'IDEMPOTENCY_KEY_REUSED',
            'This idempotency key was already used with different arguments; use a new key for a new request.',
            { retryable: false },
          ),
        );
      }
      if (existing.state === 'done' && existing.result) return existing.result;
      if (existing.state === 'running' && existing.holder !== undefined && Date.now() >= nextLeaseCheck) {
        // Not at every poll: a lease changes only once per renewal.
        nextLeaseCheck = Date.now() + this.lease.renewMs;
        if (!(await this.lease.isAlive(existing.holder))) {
          // Atomic on the record read: of several waiters one takes over, the others go on waiting for its result.
          if (await this.store.compareAndSet<IdempotencyRecord>(recordKey, existing, claim, claimTtlMs))
            return this.runClaimed(input.tenant, recordKey, claim, claimTtlMs, execute);
          continue;
        }
      }
      if (Date.now() >= deadline) {
        return errorResult(errorBody('TIMEOUT', 'The first call with this idempotency key is still running.', { retryable: true }));
      }
      await sleep(POLL_INTERVAL_MS);
    }
  }

  /** This instance's running record; in memory mode without a holder, as there is no other instance to check it. */
  private claimOf(fingerprint: string): IdempotencyRecord {
    return this.lease.spansInstances ? { state: 'running', fingerprint, holder: this.lease.id } : { state: 'running', fingerprint };
  }

  /** Runs the call under the claim this instance holds, then keeps its result or releases the key. */
  private async runClaimed(
    tenant: string,
    storeKey: string,
    claim: IdempotencyRecord,
    claimTtlMs: number,
    execute: () => Promise<McpCallToolResult>,
  ): Promise<McpCallToolResult> {
    // Counted once claimed, so a retry of a stored key is never refused; a new key beyond the quota does not run.
    const full = await this.quotas.reserve(tenant, 'idempotency', storeKey, claimTtlMs);
    if (full) {
      await this.store.delete(storeKey);
      return errorResult(this.quotas.refusal(full).toErrorBody());
    }
    const result = await execute().catch(async (error: unknown) => {
      await this.forget(tenant, storeKey, claim);
      throw error;
    });
    if (isIncomplete(result))
      await this.forget(tenant, storeKey, claim); // a retry must be able to run again
    else await this.keep(tenant, storeKey, claim, { state: 'done', fingerprint: claim.fingerprint, result });
    return result;
  }

  /**
   * Stores the finished record in place of this instance's claim and keeps it counted for as long as it is kept.
   * A claim taken over meanwhile (this instance lost its lease but ran on) is left to its new holder.
   */
  private async keep(tenant: string, key: string, claim: IdempotencyRecord, record: IdempotencyRecord): Promise<void> {
    if (!(await this.store.compareAndSet<IdempotencyRecord>(key, claim, record, this.options.idempotency.ttlMs))) return;
    await this.quotas.reserve(tenant, 'idempotency', key, this.options.idempotency.ttlMs);
  }

  /**
   * Deletes this instance's claim (atomically, only while it is still this claim) and frees its place in the tenant's
   * quota; a claim another instance took over is not ours to delete (that would let a third call run beside the new
   * holder's).
   */
  private async forget(tenant: string, key: string, claim: IdempotencyRecord): Promise<void> {
    if (!(await this.store.deleteIfEquals<IdempotencyRecord>(key, claim))) {
      if ((await this.store.get(key)) !== undefined) return; // another instance's claim, or its result
    }
    await this.quotas.release(tenant, 'idempotency', key);
  }
}

/** Codes that say the call did not run to its end (it crashed, ran out of time, was stopped or could not start). */
const NOT_COMPLETED_CODES: ReadonlySet<string> = new Set(['INTERNAL_ERROR', 'TIMEOUT', 'CANCELLED', 'UNAVAILABLE']);

/**
 * Whether a result must not be kept under its key: a failure the retry deserves to run past. Kept are successes,
 * pending envelopes (the job's id) and the tool's own non-retryable domain errors (`CITY_NOT_FOUND`): the call
 * completed and a retry gets the same answer. Released are the codes above, anything retryable (`RATE_LIMITED`,
 * `QUOTA_EXCEEDED`) and an error result without an envelope, which says nothing about how far it got.
 */
function isIncomplete(result: McpCallToolResult): boolean {
  if (result.isError !== true) return false;
  const error = (result.structuredContent as { error?: { code?: unknown; retryable?: unknown } } | undefined)?.error;
  if (typeof error?.code !== 'string') return true;
  return NOT_COMPLETED_CODES.has(error.code) || (typeof error.retryable === 'boolean' ? error.retryable : isRetryableByDefault(error.code));
}

/** Canonical JSON (sorted keys) hashed: the same arguments in another key order are the same request. */
function fingerprintOf(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('base64url');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
