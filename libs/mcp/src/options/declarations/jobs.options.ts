import type { McpJobOptions, McpShutdownOptions } from '../mcp-module-options.interface.js';
import { group, invalidOption } from '../option.builder.js';
import { integerIn } from '../option.values.js';

/** Below it BullMQ would renew a lock more often than every 500 ms: a slow Redis round trip loses jobs. */
const MIN_LOCK_MS = 1_000;
/** Above it a dead instance's jobs wait minutes for another instance: almost surely a unit mistake (s for ms). */
const MAX_LOCK_MS = 10 * 60_000;
const MIN_STALLED_INTERVAL_MS = 100;
const MAX_STALLED_COUNT = 100;
const MAX_GRACE_MS = 10 * 60_000;

/**
 * `jobs`, defaulted so a dead instance's job is taken over within 10 s (`lockDurationMs + stalledIntervalMs`, 8 s,
 * plus the pick-up); BullMQ renews locks every `lockDurationMs / 2`. Values that would stall takeover are refused.
 */
export const MCP_JOB_OPTIONS = group<McpJobOptions>()(
  {
    resultTtlMs: integerIn(60 * 60_000, 1),
    lockDurationMs: integerIn(6_000, MIN_LOCK_MS, MAX_LOCK_MS),
    stalledIntervalMs: integerIn(2_000, MIN_STALLED_INTERVAL_MS, MAX_LOCK_MS),
    maxStalledCount: integerIn(1, 0, MAX_STALLED_COUNT),
    concurrency: integerIn(10, 1),
    maxQueuedPerTenant: integerIn(100, 1),
  },
  {
    finish: (jobs, at) => {
      // A check rarer than the lock adds a whole interval to every takeover for nothing (the lock lapsed long ago).
      if (jobs.stalledIntervalMs > jobs.lockDurationMs)
        throw invalidOption(
          `${at}.stalledIntervalMs`,
          `(${jobs.stalledIntervalMs}) must not exceed ${at}.lockDurationMs (${jobs.lockDurationMs}): takeover after an instance dies takes up to their sum; lower stalledIntervalMs`,
        );
      return jobs;
    },
  },
);

/** `shutdown`: how long SIGTERM waits for in-flight calls and running jobs (10 s) before it answers or hands them back. */
export const MCP_SHUTDOWN_OPTIONS = group<McpShutdownOptions>()(
  { graceMs: integerIn(10_000, 0, MAX_GRACE_MS) },
  { object: 'such as { graceMs: 10000 }' },
);
