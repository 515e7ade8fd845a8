import { Inject, Injectable } from '@nestjs/common';
import { MCP_RESOLVED_OPTIONS } from '../mcp.module-definition.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';

/** A granted call slot (release it when the call ends), or a refusal with the time to wait. */
export type CallPermit = { granted: true; release: () => void } | { granted: false; retryAfterMs: number; reason: string };

/**
 * Per-tenant fairness on this instance: a cap on concurrent tool calls and an optional fixed-window rate
 * limit, so one tenant cannot starve the others.
 */
@Injectable()
export class McpTenantLimiter {
  private readonly active = new Map<string, number>();
  private readonly windows = new Map<string, { startedAt: number; count: number }>();

  constructor(@Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions) {}

  acquire(tenant: string, now = Date.now()): CallPermit {
    const { maxConcurrentCallsPerTenant, rateLimit } = this.options.limits;
    if (rateLimit) {
      let window = this.windows.get(tenant);
      if (!window || now - window.startedAt >= rateLimit.windowMs) {
        window = { startedAt: now, count: 0 };
        this.windows.set(tenant, window);
      }
      if (window.count >= rateLimit.limit) {
        return {
          granted: false,
          retryAfterMs: window.startedAt + rateLimit.windowMs - now,
          reason: `more than ${rateLimit.limit} calls in ${rateLimit.windowMs} ms`,
        };
      }
      window.count += 1;
    }
    const running = this.active.get(tenant) ?? 0;
    if (running >= maxConcurrentCallsPerTenant) {
      return { granted: false, retryAfterMs: 100, reason: `more than ${maxConcurrentCallsPerTenant} calls at once` };
    }
    this.active.set(tenant, running + 1);
    let released = false;
    return {
      granted: true,
      release: () => {
        if (released) return;
        released = true;
        const left = (this.active.get(tenant) ?? 1) - 1;
        if (left <= 0) this.active.delete(tenant);
        else this.active.set(tenant, left);
      },
    };
  }
}
