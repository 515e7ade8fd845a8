import type { Provider } from '@nestjs/common';
import { McpIdempotency } from './idempotency.service.js';
import { McpInFlightCalls } from './in-flight-calls.js';
import { McpCallPipeline } from './mcp-call.pipeline.js';
import { McpTenantLimiter } from './tenant-limiter.js';
import { McpToolCallRunner } from './tool-call.runner.js';
import { McpToolHandlerFactory } from './tool-handler.factory.js';

/** The one call pipeline and what it runs: limits, idempotency, the method through Nest, the calls in flight. */
export const MCP_EXECUTION_PROVIDERS: Provider[] = [
  McpTenantLimiter,
  McpIdempotency,
  McpToolHandlerFactory,
  McpToolCallRunner,
  McpCallPipeline,
  McpInFlightCalls,
];
