import { Inject, Injectable, type BeforeApplicationShutdown, type OnModuleDestroy } from '@nestjs/common';
import { MCP_RESOLVED_OPTIONS } from '../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import type { McpCallToolResult } from '../core/results/content.types.js';
import { errorResult } from '../core/results/mcp-result.js';
import { errorBody } from '../core/errors/mcp-tool.error.js';

/** One tool call running on this instance: settles its caller's promise with the work's outcome, or at shutdown. */
class InFlightCall {
  constructor(
    readonly done: Promise<unknown>,
    private readonly controller: AbortController,
    private readonly settle: (result: McpCallToolResult) => void,
  ) {}

  interrupt(): void {
    this.controller.abort(new Error('The instance is shutting down'));
    this.settle(errorResult(errorBody('UNAVAILABLE', 'This server instance is shutting down; retry the call.', { retryable: true })));
  }
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
  run(controller: AbortController, work: () => Promise<McpCallToolResult>): Promise<McpCallToolResult> {
    // One promise settled by whichever comes first (no race, no second promise per call: this is every call's path).
    return new Promise<McpCallToolResult>((resolve, reject) => {
      const done = work();
      const call = new InFlightCall(done, controller, resolve);
      this.calls.add(call);
      done.then(
        (result) => {
          this.calls.delete(call);
          resolve(result);
        },
        (error: unknown) => {
          this.calls.delete(call);
          reject(error);
        },
      );
    });
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
