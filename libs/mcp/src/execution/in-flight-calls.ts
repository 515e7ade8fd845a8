import { Inject, Injectable, type BeforeApplicationShutdown, type OnModuleDestroy } from '@nestjs/common';
import { MCP_RESOLVED_OPTIONS } from '../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import type { McpCallToolResult } from '../core/results/content.types.js';
import { errorResult } from '../core/results/mcp-result.js';
import { errorBody } from '../core/errors/mcp-tool.error.js';

/** One tool call running on this instance. */
interface InFlightCall {
  readonly done: Promise<unknown>;
  interrupt(): void;
}

/**
 * The tool calls running here: at shutdown each gets `shutdown.graceMs`, then its signal aborts and its caller gets a
 * retryable `UNAVAILABLE` at once, which releases its idempotency key so the retry runs on another instance.
 */
@Injectable()
export class McpInFlightCalls implements OnModuleDestroy, BeforeApplicationShutdown {
  private readonly calls = new Set<InFlightCall>();
  /** When the grace ends, counted from the first shutdown hook (the same moment for calls and jobs). */
  private graceEndsAt?: number;

  constructor(@Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions) {}

  /** Runs one call's work (`controller` is the call's own) until it ends or shutdown's grace is over. */
  async run(controller: AbortController, work: () => Promise<McpCallToolResult>): Promise<McpCallToolResult> {
    let interrupted!: (result: McpCallToolResult) => void;
    const cut = new Promise<McpCallToolResult>((resolve) => (interrupted = resolve));
    const done = work();
    const call: InFlightCall = {
      done,
      interrupt: () => {
        controller.abort(new Error('The instance is shutting down'));
        interrupted(errorResult(errorBody('UNAVAILABLE', 'This server instance is shutting down; retry the call.', { retryable: true })));
      },
    };
    this.calls.add(call);
    try {
      return await Promise.race([done, cut]);
    } finally {
      this.calls.delete(call);
    }
  }

  /** Shutdown starts (every destroy hook runs before the other shutdown hooks): the grace starts now. */
  onModuleDestroy(): void {
    this.graceEndsAt ??= Date.now() + this.options.shutdown.graceMs;
  }

  /** Waits until `shutdown.graceMs` after shutdown began for the calls running now, then answers the rest `UNAVAILABLE`. */
  async beforeApplicationShutdown(): Promise<void> {
    this.onModuleDestroy();
    if (this.calls.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const settled = Promise.allSettled([...this.calls].map((call) => call.done));
    const graceLeft = Math.max(0, this.graceEndsAt! - Date.now());
    await Promise.race([settled, new Promise((resolve) => (timer = setTimeout(resolve, graceLeft)))]);
    clearTimeout(timer);
    for (const call of this.calls) call.interrupt();
  }
}
