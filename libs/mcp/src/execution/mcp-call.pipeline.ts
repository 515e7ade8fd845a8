import { Inject, Injectable, Optional } from '@nestjs/common';
import type { McpToolContext } from '../core/mcp-tool-context.interface.js';
import type { McpCallableTool } from './mcp-callable-tool.interface.js';
import type { McpRequestContext } from '../core/mcp-request-context.interface.js';
import type { McpCallToolResult } from '../core/results/content.types.js';
import type { McpErrorEnvelope } from '../core/results/envelope.types.js';
import { envelopeToCallToolResult, errorResult } from '../core/results/mcp-result.js';
import { errorBody } from '../core/errors/mcp-tool.error.js';
import { JsonRpcErrorCode } from '../core/json-rpc/json-rpc-error-codes.js';
import { McpProtocolError } from '../core/errors/protocol-error.js';
import { MCP_TRACER, NOOP_MCP_TRACER, type McpTracer } from '../core/mcp-tracer.interface.js';
import { MCP_METRICS, NOOP_MCP_METRICS, type McpMeteredToolCall, type McpMetrics } from '../core/mcp-metrics.interface.js';
import { McpStoreUnavailableError } from '../core/errors/store-unavailable.error.js';
import type { McpJobRecord, McpTaskRunSpec } from '../jobs/job.record.js';
import { McpJobService } from '../jobs/mcp-job.service.js';
import { McpQuotaExceededError } from '../core/errors/quota-exceeded.error.js';
import { McpIdempotency } from './idempotency.service.js';
import { McpInFlightCalls } from './in-flight-calls.js';
import { McpTenantLimiter, type CallPermit } from './tenant-limiter.js';
import { McpToolCallRunner } from './tool-call.runner.js';

/** One `tools/call` as the pipeline runs it, whatever the revision and transport. */
export interface McpPipelineCall {
  readonly tool: McpCallableTool;
  /** The raw arguments (a plain object). */
  readonly args: Record<string, unknown>;
  readonly context: McpToolContext;
  readonly controller: AbortController;
  /** How an accepted job answers the call (default: the `pending` envelope). */
  readonly accepted?: (record: McpJobRecord) => McpCallToolResult;
  /** A task of the 2026-07-28 tasks extension: what its worker needs from the request. */
  readonly task?: McpTaskRunSpec;
  /** Runs the validated call instead of the default (invoke the tool here, or accept a job for the queue). */
  readonly execute?: (args: object) => Promise<McpCallToolResult>;
  /** False skips the idempotency key (2025-11-25 task-augmented calls, as before). */
  readonly idempotent?: boolean;
}

/**
 * The one call pipeline of every era and transport. A call passes these stages in this order, and the first
 * refusal ends it:
 *
 * 1. authentication (the transport) and the tool's scopes ({@link admit});
 * 2. the tool's Nest guards (class, method and global `@UseGuards`) on the raw arguments (under the tool's own
 *    names, with the values transforms fix), as Nest runs guards before pipes;
 * 3. the tenant's limits (`McpTenantLimiter`: `limits.rateLimit` and `limits.maxConcurrentCallsPerTenant`);
 * 4. argument validation: the tool's one validator (`McpArgumentValidator`, built by its source at boot);
 * 5. the idempotency key (`McpIdempotency`);
 * 6. the tool's interceptors, pipes and method (through ExternalContextCreator, under its timeout) or, for a job
 *    tool, a place among the tenant's `jobs.maxQueuedPerTenant`, a job record and the job queue (BullMQ with
 *    `redis`), whose worker runs the method later without running the guards again.
 *
 * Guards come before everything the tenant shares or the server remembers: a caller they refuse spends none of
 * the tenant's calls or places, learns nothing of the schema from a VALIDATION_ERROR, and leaves no FORBIDDEN
 * under an idempotency key that would be replayed once it has the right role. The tool's exception filters see
 * the refusals of its guards as before. A 2025-11-25 call, a 2025-11-25 task and a 2026-07-28 task all pass here.
 */
@Injectable()
export class McpCallPipeline {
  constructor(
    private readonly runner: McpToolCallRunner,
    private readonly limiter: McpTenantLimiter,
    private readonly idempotency: McpIdempotency,
    private readonly jobs: McpJobService,
    private readonly inFlight: McpInFlightCalls,
    @Optional() @Inject(MCP_TRACER) private readonly tracer: McpTracer = NOOP_MCP_TRACER,
    @Optional() @Inject(MCP_METRICS) private readonly metrics: McpMetrics = NOOP_MCP_METRICS,
  ) {}

  /**
   * With authentication on, a caller lacking a required scope is refused: over HTTP as a 403 with a step-up
   * challenge (the transport renders it) and a JSON-RPC error carrying the envelope; elsewhere as an envelope.
   */
  admit(tool: McpCallableTool, request: Pick<McpRequestContext, 'principal' | 'onInsufficientScope'>): McpCallToolResult | undefined {
    const principal = request.principal;
    if (!principal || tool.scopes.length === 0) return undefined;
    if (tool.scopes.every((scope) => principal.scopes.includes(scope))) return undefined;
    const envelope: McpErrorEnvelope = {
      status: 'error',
      error: errorBody('FORBIDDEN', `Forbidden: this tool requires the scope(s) ${tool.scopes.join(', ')}`),
    };
    if (!request.onInsufficientScope) return envelopeToCallToolResult(envelope);
    request.onInsufficientScope([...tool.scopes]);
    throw new McpProtocolError(JsonRpcErrorCode.SERVER_ERROR, envelope.error.message, envelope);
  }

  /**
   * Guards, limits, validation, idempotency, then the handler or the job queue (stages 2 to 6 above); every refusal
   * is an envelope result. The whole run is the tool's span (`execute_tool <name>`).
   */
  run(call: McpPipelineCall): Promise<McpCallToolResult> {
    const { name: toolName, upstream } = call.tool;
    return this.tracer.tool({ toolName, sessionId: call.context.sessionId, ...(upstream !== undefined && { upstream }) }, () =>
      this.metered(call),
    );
  }

  /** Runs the stages and reports the outcome (envelope status and error code) and duration to the metrics. */
  private async metered(call: McpPipelineCall): Promise<McpCallToolResult> {
    const started = process.hrtime.bigint();
    const report = (outcome: Pick<McpMeteredToolCall, 'status' | 'code'>) =>
      this.metrics.toolCall({
        tool: call.tool.name,
        tenant: call.context.tenant,
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
        ...(call.tool.upstream !== undefined && { upstream: call.tool.upstream }),
        ...outcome,
      });
    try {
      const result = await this.runStages(call);
      report(outcomeOf(result));
      return result;
    } catch (error) {
      report({ status: 'error', code: error instanceof McpStoreUnavailableError ? 'UNAVAILABLE' : 'INTERNAL_ERROR' });
      throw error;
    }
  }

  private async runStages(call: McpPipelineCall): Promise<McpCallToolResult> {
    const { tool, context } = call;
    const args = toolArguments(tool, call.args);
    // Stages that decide at once answer a value, not a promise: no tick for them.
    const guarding = this.runner.guard(tool, args, context, call.controller);
    const refused = guarding && (await guarding);
    if (refused) return refused;
    let permit: CallPermit;
    try {
      permit = await this.limiter.acquire(context.tenant, tool.timeoutMs);
    } catch (error) {
      // The limiter counts in the store: while it is down the call is refused as the store's own UNAVAILABLE.
      if (error instanceof McpStoreUnavailableError) return errorResult(error.toErrorBody());
      throw error;
    }
    if (!permit.granted) {
      return errorResult(
        errorBody('RATE_LIMITED', `Too many calls: ${permit.reason}; retry later.`, {
          retryable: true,
          retryAfterMs: permit.retryAfterMs,
        }),
      );
    }
    try {
      const checking = this.runner.validate(tool, args);
      const checked = checking instanceof Promise ? await checking : checking;
      if (!checked.valid) return checked.result;
      // Bounded at shutdown (`shutdown.graceMs`, then UNAVAILABLE), inside the idempotency key so that releases it.
      const execute = (): Promise<McpCallToolResult> =>
        this.inFlight.run(call.controller, () => {
          if (call.execute) return call.execute(checked.value);
          return tool.job ? this.accept(call, args) : this.runner.invoke(tool, checked.value, context, call.controller);
        });
      const key = tool.idempotencyKey === undefined ? undefined : args[tool.idempotencyKey];
      return typeof key === 'string' && call.idempotent !== false
        ? await this.idempotency.run({ tenant: context.tenant, tool: tool.name, key, args, waitMs: tool.timeoutMs }, execute)
        : await execute();
    } catch (error) {
      // A job refused by the tenant's quotas, or the idempotency key or job record not written (store down): a
      // retryable envelope, as the catalogue says, not an internal error.
      if (error instanceof McpQuotaExceededError || error instanceof McpStoreUnavailableError) return errorResult(error.toErrorBody());
      throw error;
    } finally {
      // Never rejects: a release the store cannot take leaves the slot to its lease.
      await permit.release();
    }
  }

  private async accept(call: McpPipelineCall, args: Record<string, unknown>): Promise<McpCallToolResult> {
    const { tool, context } = call;
    const record = await this.jobs.start(tool.name, args, context, tool.job?.estimatedSeconds, call.task);
    return call.accepted ? call.accepted(record) : envelopeToCallToolResult(this.jobs.pendingEnvelope(record, context.transport));
  }
}

/**
 * The arguments a caller sent as the tool declares them. Transforms show a tool under other argument names or
 * without fixed ones; every stage after this sees the tool's own, so validation checks its own schema and a caller
 * cannot override a fixed value.
 */
export function toolArguments(tool: McpCallableTool, args: Record<string, unknown>): Record<string, unknown> {
  return tool.toToolArgs ? tool.toToolArgs(args) : args;
}

/** The envelope status of a result (`McpResult.raw()` results carry none: `isError` decides). */
function outcomeOf(result: McpCallToolResult): Pick<McpMeteredToolCall, 'status' | 'code'> {
  const envelope = result.structuredContent as { status?: unknown; error?: { code?: unknown } } | undefined;
  const status = envelope?.status;
  if (status === 'pending' || status === 'success') return { status };
  if (status === 'error' || result.isError) {
    const code = envelope?.error?.code;
    return { status: 'error', code: typeof code === 'string' ? code : undefined };
  }
  return { status: 'success' };
}
