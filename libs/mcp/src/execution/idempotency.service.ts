import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { MCP_RESOLVED_OPTIONS } from '../mcp.module-definition.js';
import type { McpResolvedOptions } from '../interfaces/mcp-module-options.interface.js';
import type { McpCallToolResult } from '../results/content.types.js';
import { envelopeToCallToolResult } from '../results/mcp-result.js';
import { isRetryableByDefault } from '../results/error-codes.js';
import { errorBody } from '../results/mcp-tool.error.js';
import { MCP_STORE, type McpKeyValueStore } from '../stores/key-value.store.js';

/** What is stored under an idempotency key. */
interface IdempotencyRecord {
  state: 'running' | 'done';
  fingerprint: string;
  result?: McpCallToolResult;
}

const POLL_INTERVAL_MS = 25;

/**
 * Idempotency keys (seed 002): the first call with a key runs; later calls with the same key, tool and tenant
 * get the first call's result without running again — also when they arrive at the same time (one runs, the
 * others wait) or on another instance (the claim is an atomic set-if-absent in the shared store). The same key
 * with different arguments is `IDEMPOTENCY_KEY_REUSED`.
 */
@Injectable()
export class McpIdempotency {
  constructor(
    @Inject(MCP_STORE) private readonly store: McpKeyValueStore,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
  ) {}

  async run(input: { tenant: string; tool: string; key: string; args: Record<string, unknown>; waitMs: number }, execute: () => Promise<McpCallToolResult>): Promise<McpCallToolResult> {
    const storeKey = `idem:${input.tenant}:${input.tool}:${input.key}`;
    const fingerprint = fingerprintOf(input.args);
    // A claim outlives the longest run, so an instance that dies mid-call does not block the key for ever.
    const claimed = await this.store.setIfAbsent<IdempotencyRecord>(storeKey, { state: 'running', fingerprint }, input.waitMs + 5_000);
    if (claimed) {
      const result = await execute().catch(async (error: unknown) => {
        await this.store.delete(storeKey);
        throw error;
      });
      if (isRetryableResult(result)) await this.store.delete(storeKey); // a retry must be able to run again
      else await this.store.set<IdempotencyRecord>(storeKey, { state: 'done', fingerprint, result }, this.options.idempotency.ttlMs);
      return result;
    }
    const deadline = Date.now() + input.waitMs;
    for (;;) {
      const existing = await this.store.get<IdempotencyRecord>(storeKey);
      if (!existing) return this.run(input, execute); // the first call failed retryably or expired: run now
      if (existing.fingerprint !== fingerprint) {
        return envelopeToCallToolResult({
          status: 'error',
          error: errorBody('IDEMPOTENCY_KEY_REUSED', 'This idempotency key was already used with different arguments; use a new key for a new request.', { retryable: false }),
        });
      }
      if (existing.state === 'done' && existing.result) return existing.result;
      if (Date.now() >= deadline) {
        return envelopeToCallToolResult({ status: 'error', error: errorBody('TIMEOUT', 'The first call with this idempotency key is still running.', { retryable: true }) });
      }
      await sleep(POLL_INTERVAL_MS);
    }
  }
}

function isRetryableResult(result: McpCallToolResult): boolean {
  const envelope = result.structuredContent as { status?: string; error?: { code?: string; retryable?: boolean } } | undefined;
  return result.isError === true && (envelope?.error?.retryable ?? isRetryableByDefault(envelope?.error?.code ?? ''));
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
