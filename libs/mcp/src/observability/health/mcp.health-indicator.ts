import { Inject, Injectable } from '@nestjs/common';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { McpHealthMessages } from './health.messages.js';
import { MCP_BUS, type McpMessageBus } from '../../core/message-bus.interface.js';
import { MCP_JOB_QUEUE, type McpJobQueue } from '../../jobs/job-queue.interface.js';
import { MCP_STORE, type McpKeyValueStore } from '../../stores/key-value.store.js';

/** The status of one part, in the shape `@nestjs/terminus` reads (`HealthIndicatorResult`). @publicApi */
export type McpHealthPartStatus = { status: 'up' } | { status: 'down'; message: string };

/** What {@link McpHealthIndicator.isHealthy} returns: one entry per part, `<key>.store`, `<key>.bus`, `<key>.jobs`. @publicApi */
export type McpHealthIndicatorResult = Record<string, McpHealthPartStatus>;

/** @publicApi */
export interface McpHealthCheckOptions {
  /** How long each ping may take before its part counts as down, in ms (1 000). */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 1_000;
const TIMED_OUT = Symbol('timed out');

/**
 * A `@nestjs/terminus` health indicator (needing nothing from terminus at run time): pings the store, bus and job
 * queue with a short timeout and reports each under its own key, so a 503 names the part that failed.
 * @publicApi
 * @example
 * @Controller('health')
 * export class HealthController {
 *   constructor(private readonly health: HealthCheckService, private readonly mcp: McpHealthIndicator) {}
 *
 *   @Get() @HealthCheck()
 *   check() {
 *     return this.health.check([() => this.mcp.isHealthy('mcp')]);
 *   }
 * }
 */
@Injectable()
export class McpHealthIndicator {
  /** Nest injects it; its parameters are not part of the public API. @internal */
  constructor(
    @Inject(MCP_STORE) private readonly store: McpKeyValueStore,
    @Inject(MCP_BUS) private readonly bus: McpMessageBus,
    @Inject(MCP_JOB_QUEUE) private readonly jobs: McpJobQueue,
  ) {}

  /** Pings the three parts at once; resolves (never rejects) with `{ '<key>.store': { status: 'up' }, ... }`. */
  async isHealthy(key = 'mcp', options: McpHealthCheckOptions = {}): Promise<McpHealthIndicatorResult> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new McpConfigurationError(McpHealthMessages.invalidTimeout(timeoutMs));
    const parts = { store: this.store, bus: this.bus, jobs: this.jobs } as const;
    const checked = await Promise.all(
      Object.entries(parts).map(async ([part, target]) => [`${key}.${part}`, await check(target.ping?.bind(target), timeoutMs)] as const),
    );
    return Object.fromEntries(checked);
  }
}

/** `up` when `ping` (absent: an in-process part) resolves within `timeoutMs`, else `down` with the reason. */
async function check(ping: (() => Promise<void>) | undefined, timeoutMs: number): Promise<McpHealthPartStatus> {
  if (!ping) return { status: 'up' };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(TIMED_OUT), timeoutMs);
    timer.unref();
  });
  try {
    await Promise.race([ping(), timeout]);
    return { status: 'up' };
  } catch (error) {
    // Health endpoints are often public: the reason, never the Redis address (the store logs that itself).
    return { status: 'down', message: error === TIMED_OUT ? `no answer within ${timeoutMs} ms` : 'unreachable' };
  } finally {
    clearTimeout(timer);
  }
}
