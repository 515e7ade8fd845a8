import type { McpIdempotencyOptions, McpLimitOptions } from '../mcp-module-options.interface.js';
import { group, optional } from '../option.builder.js';
import { positiveInteger } from '../option.values.js';

/** `limits.rateLimit`: calls per tenant per fixed window. */
const RATE_LIMIT = group<NonNullable<McpLimitOptions['rateLimit']>>()({ limit: positiveInteger(1), windowMs: positiveInteger(1) });

/** `limits`: bounds against hostile or runaway input, per message and per tenant. */
export const MCP_LIMIT_OPTIONS = group<McpLimitOptions>()({
  maxJsonDepth: positiveInteger(64),
  maxJsonCollectionSize: positiveInteger(10_000),
  bodyTimeoutMs: positiveInteger(30_000),
  maxConcurrentCallsPerTenant: positiveInteger(100),
  // Off unless given; a falsy value (null from a config file) is off too.
  rateLimit: optional(RATE_LIMIT, (value) => !value),
  maxStreamsPerTenant: positiveInteger(100),
  maxSessionsPerTenant: positiveInteger(1_000),
  maxStoredKeysPerTenant: positiveInteger(10_000),
});

/** `idempotency`: how long keys remember and how many a tenant holds. */
export const MCP_IDEMPOTENCY_OPTIONS = group<McpIdempotencyOptions>()({
  ttlMs: positiveInteger(24 * 60 * 60_000),
  maxKeysPerTenant: positiveInteger(10_000),
});
