import { Injectable } from '@nestjs/common';
import { McpToolRegistry } from './mcp-tool.registry.js';
import { createToolContext } from '../../execution/tool-context.factory.js';
import { McpToolCallRunner } from '../../execution/tool-call.runner.js';
import { McpTenantLimiter } from '../../execution/tenant-limiter.js';
import type { McpToolDefinition } from './mcp-tool-definition.interface.js';
import { envelopeToCallToolResult } from '../../core/results/mcp-result.js';
import { errorBody } from '../../core/errors/mcp-tool.error.js';
import type { McpErrorEnvelope } from '../../core/results/envelope.types.js';
import { JsonRpcErrorCode } from '../../core/json-rpc/json-rpc-error-codes.js';
import { McpProtocolError } from '../../core/errors/protocol-error.js';
import { clientText } from '../../core/client-text.js';
import { McpClientRequests } from '../../core/client-requests.js';
import { McpJobService } from '../../jobs/mcp-job.service.js';
import { taskOf } from '../tasks/job-task.mapper.js';
import { McpQuotaExceededError } from '../../stores/quota-exceeded.error.js';
import { McpIdempotency } from '../../execution/idempotency.service.js';
import type { McpCallToolResult } from '../../core/results/content.types.js';
import type { McpCall, McpMethodHandler } from '../../core/method-handler.interface.js';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `tools/call`: a malformed request or an unknown tool is a protocol error (-32602); everything about the
 * call itself (bad arguments, failures, timeouts, rate limits) is an `isError` result carrying an envelope.
 */
@Injectable()
export class ToolsCallHandler implements McpMethodHandler {
  readonly method = 'tools/call';

  constructor(
    private readonly registry: McpToolRegistry,
    private readonly runner: McpToolCallRunner,
    private readonly limiter: McpTenantLimiter,
    private readonly clientRequests: McpClientRequests,
    private readonly jobs: McpJobService,
    private readonly idempotency: McpIdempotency,
  ) {}

  async handle(call: McpCall): Promise<Record<string, unknown>> {
    const { name, arguments: rawArgs, _meta: meta } = call.params;
    if (typeof name !== 'string') throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, 'Invalid params: tools/call needs a tool name');
    if (rawArgs !== undefined && rawArgs !== null && !isPlainObject(rawArgs)) {
      throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, 'Invalid params: arguments must be an object');
    }
    const tool = this.registry.get(name);
    if (!tool) throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, `Unknown tool: ${clientText(name)}`);
    const forbidden = this.checkScopes(tool, call);
    if (forbidden) return forbidden;
    const asTask = this.wantsTask(tool, call);

    const handle = createToolContext({
      requestId: call.id,
      toolName: name,
      progressToken: isPlainObject(meta) ? meta.progressToken : undefined,
      request: call.context,
      signal: call.signal,
      clientRequests: this.clientRequests,
    });
    const permit = this.limiter.acquire(handle.context.tenant);
    if (!permit.granted) {
      return asResult({ status: 'error', error: errorBody('RATE_LIMITED', `Too many calls: ${permit.reason}; retry later.`, { retryable: true, retryAfterMs: permit.retryAfterMs }) });
    }
    try {
      const args = (rawArgs ?? {}) as Record<string, unknown>;
      const checked = await this.runner.validate(tool, args);
      if (!checked.valid) return checked.result as unknown as Record<string, unknown>;
      const execute = async (): Promise<McpCallToolResult> => {
        if (!tool.job) return this.runner.invoke(tool, checked.args, handle.context, call.controller);
        const record = await this.jobs.start(tool.name, args, handle.context, tool.job.estimatedSeconds);
        return asTask ? { task: taskOf(record) } as unknown as McpCallToolResult : envelopeToCallToolResult(this.jobs.pendingEnvelope(record));
      };
      const key = tool.idempotencyKey === undefined ? undefined : args[tool.idempotencyKey];
      const result =
        typeof key === 'string' && !asTask
          ? await this.idempotency.run({ tenant: handle.context.tenant, tool: tool.name, key, args, waitMs: tool.timeoutMs }, execute)
          : await execute();
      return result as unknown as Record<string, unknown>;
    } catch (error) {
      // A job record refused by the tenant's quota: a retryable envelope, not an internal error.
      if (error instanceof McpQuotaExceededError) return asResult({ status: 'error', error: error.toErrorBody() });
      throw error;
    } finally {
      permit.release();
      handle.finish();
    }
  }

  /**
   * A `task` param asks for a task-augmented call (spec 2025-11-25): honoured for long-running tools in sessions
   * that negotiated tasks; a tool without task support answers -32601; older sessions ignore the param.
   */
  private wantsTask(tool: McpToolDefinition, call: McpCall): boolean {
    if (!isPlainObject(call.params.task) || call.context.protocolVersion < '2025-11-25' || !this.registry.hasJobs) return false;
    if (!tool.job) throw new McpProtocolError(JsonRpcErrorCode.METHOD_NOT_FOUND, `Tool ${tool.name} does not support task-augmented calls`);
    return true;
  }

  /**
   * With authentication on, a caller lacking a required scope is refused: over HTTP as a 403 with a step-up
   * challenge (the transport renders it) and a JSON-RPC error carrying the envelope; elsewhere as an envelope.
   */
  private checkScopes(tool: McpToolDefinition, call: McpCall): Record<string, unknown> | undefined {
    const principal = call.context.principal;
    if (!principal || tool.scopes.length === 0) return undefined;
    const missing = tool.scopes.filter((scope) => !principal.scopes.includes(scope));
    if (missing.length === 0) return undefined;
    const envelope: McpErrorEnvelope = { status: 'error', error: errorBody('FORBIDDEN', `Forbidden: this tool requires the scope(s) ${tool.scopes.join(', ')}`) };
    if (!call.context.onInsufficientScope) return asResult(envelope);
    call.context.onInsufficientScope(tool.scopes as string[]);
    throw new McpProtocolError(JsonRpcErrorCode.SERVER_ERROR, envelope.error.message, envelope);
  }
}

function asResult(envelope: McpErrorEnvelope): Record<string, unknown> {
  return envelopeToCallToolResult(envelope) as unknown as Record<string, unknown>;
}
