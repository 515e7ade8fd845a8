import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { McpMessages } from '../../core/errors/mcp.messages.js';
import type { McpJobOptions, McpResolvedOptions, McpShutdownOptions } from '../../options/mcp-module-options.interface.js';

/**
 * The job defaults, chosen so that another instance takes over the job of one that died within 10 s: a dead
 * worker's lock lapses at most `lockDurationMs` after its last renewal, and the stalled check that finds it runs
 * every `stalledIntervalMs`, so takeover comes within `lockDurationMs + stalledIntervalMs` (8 s) plus the pick-up.
 * BullMQ renews locks every `lockDurationMs / 2` (3 s): a handler may block the event loop that long without
 * losing its job to another instance.
 */
export const MCP_JOB_DEFAULTS: Readonly<Required<McpJobOptions>> = Object.freeze({
  resultTtlMs: 60 * 60_000,
  lockDurationMs: 6_000,
  stalledIntervalMs: 2_000,
  maxStalledCount: 1,
  concurrency: 10,
  maxQueuedPerTenant: 100,
});

/** How long SIGTERM waits for in-flight calls and running jobs (10 s) before it answers or hands them back. */
export const MCP_SHUTDOWN_DEFAULTS: Readonly<Required<McpShutdownOptions>> = Object.freeze({ graceMs: 10_000 });

/** Below it BullMQ would renew a lock more often than every 500 ms: a slow Redis round trip loses jobs. */
const MIN_LOCK_MS = 1_000;
/** Above it a dead instance's jobs wait minutes for another instance: almost surely a unit mistake (s for ms). */
const MAX_LOCK_MS = 10 * 60_000;
const MIN_STALLED_INTERVAL_MS = 100;
const MAX_STALLED_COUNT = 100;
const MAX_GRACE_MS = 10 * 60_000;

/** `jobs.*` with defaults; rejects, naming the option, values that could not work or would stall takeover. */
export function resolveJobOptions(jobs: McpJobOptions | undefined): McpResolvedOptions['jobs'] {
  const option = (key: keyof McpJobOptions, min: number, max = Number.MAX_SAFE_INTEGER): number =>
    integerIn(`jobs.${key}`, jobs?.[key], MCP_JOB_DEFAULTS[key], min, max);
  const resolved = {
    resultTtlMs: option('resultTtlMs', 1),
    lockDurationMs: option('lockDurationMs', MIN_LOCK_MS, MAX_LOCK_MS),
    stalledIntervalMs: option('stalledIntervalMs', MIN_STALLED_INTERVAL_MS, MAX_LOCK_MS),
    maxStalledCount: option('maxStalledCount', 0, MAX_STALLED_COUNT),
    concurrency: option('concurrency', 1),
    maxQueuedPerTenant: option('maxQueuedPerTenant', 1),
  };
  // A check rarer than the lock adds a whole interval to every takeover for nothing (the lock lapsed long ago).
  if (resolved.stalledIntervalMs > resolved.lockDurationMs) {
    throw new McpConfigurationError(
      McpMessages.invalidOption(
        'jobs.stalledIntervalMs',
        `(${resolved.stalledIntervalMs}) must not exceed jobs.lockDurationMs (${resolved.lockDurationMs}): takeover after an instance dies takes up to their sum; lower stalledIntervalMs`,
      ),
    );
  }
  return resolved;
}

/** `shutdown.*` with defaults. */
export function resolveShutdownOptions(shutdown: McpShutdownOptions | undefined): McpResolvedOptions['shutdown'] {
  if (shutdown !== undefined && (shutdown === null || typeof shutdown !== 'object'))
    throw new McpConfigurationError(McpMessages.invalidOption('shutdown', 'must be an object such as { graceMs: 10000 }'));
  return { graceMs: integerIn('shutdown.graceMs', shutdown?.graceMs, MCP_SHUTDOWN_DEFAULTS.graceMs, 0, MAX_GRACE_MS) };
}

function integerIn(option: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `from ${min} to ${max}`;
    throw new McpConfigurationError(McpMessages.invalidOption(option, `must be an integer ${range}, got ${String(value)}`));
  }
  return value;
}
