import { Injectable, Logger } from '@nestjs/common';
import { McpMessages } from '../core/errors/mcp.messages.js';
import type { McpToolContext } from '../core/mcp-tool-context.interface.js';
import type { McpCallableTool } from './mcp-callable-tool.interface.js';
import type { McpCallToolResult } from '../core/results/content.types.js';
import type { McpEnvelope } from '../core/results/envelope.types.js';
import { envelopeToCallToolResult, errorResult, McpEnvelopeResult, McpRawResult } from '../core/results/mcp-result.js';
import { errorBody } from '../core/errors/mcp-tool.error.js';
import { MCP_ERROR_CODES } from '../core/errors/error-codes.js';
import type { ArgumentValidation } from './validation/argument-validator.interface.js';
import { errorToEnvelope } from './error-envelope.js';
import { errorLogText } from '../core/error-log-text.js';
import { McpControlFlowSignal } from '../core/control-flow.signal.js';
import { clientText } from '../core/client-text.js';

/** Marks the abort reason of a timed-out call, so it is told apart from a client's cancellation. */
class ToolTimeout extends Error {}

/**
 * The stages of a tool call that touch the tool (guards, validation, the handler under its timeout), each turning
 * whatever comes back into a `CallToolResult`; `McpCallPipeline` decides their order.
 */
@Injectable()
export class McpToolCallRunner {
  private readonly logger = new Logger('McpModule');

  /**
   * Runs a job with the raw arguments its call's validation accepted (a DTO instance would lose its classes and Dates
   * as JSON in Redis): the tool's validator revives the value it handed the tool then.
   */
  async invokeAccepted(
    tool: McpCallableTool,
    acceptedArgs: Record<string, unknown>,
    context: McpToolContext,
    controller: AbortController,
  ): Promise<McpCallToolResult> {
    const revived = checkOf(tool, await tool.validator.revive(acceptedArgs));
    return revived.valid ? this.invoke(tool, revived.value, context, controller) : revived.result;
  }

  /**
   * Checks arguments with the tool's validator; a failure is a VALIDATION_ERROR result. A value, not a promise, when
   * the check is synchronous (a compiled plan, a JSON Schema): no tick per call.
   */
  validate(tool: McpCallableTool, rawArgs: Record<string, unknown>): ArgsCheck | Promise<ArgsCheck> {
    const validation = tool.validator.validate(rawArgs);
    return validation instanceof Promise ? validation.then((settled) => checkOf(tool, settled)) : checkOf(tool, validation);
  }

  /**
   * Runs the tool's Nest guards on the raw arguments, under the tool's timeout: undefined when they admit the call,
   * else the result it ends with (FORBIDDEN for a refusal, what a tool's exception filter answered, TIMEOUT).
   */
  guard(
    tool: McpCallableTool,
    rawArgs: Record<string, unknown>,
    context: McpToolContext,
    controller: AbortController,
  ): Promise<McpCallToolResult | undefined> | undefined {
    const guards = tool.guards;
    // No guard anywhere: no Nest context, timer and race spent on nothing (most tools, on every call).
    if (!guards || guards.none?.()) return undefined;
    return this.attempt(tool, context, controller, async () => {
      const refused = await guards(rawArgs, context);
      return refused && toCallToolResult(refused.answered);
    });
  }

  /** Calls the handler with validated arguments under the tool's timeout; a Standard Schema `output` checks its data. */
  invoke(tool: McpCallableTool, args: object, context: McpToolContext, controller: AbortController): Promise<McpCallToolResult> {
    return this.attempt(tool, context, controller, async () => {
      const value = await tool.handler(args, context);
      return tool.parseOutput ? this.checkedOutput(tool, value, context) : toCallToolResult(value);
    });
  }

  /**
   * A success envelope's `data` as the tool's output schema parses it: the server sends only what its advertised
   * `outputSchema` describes (the spec's MUST). Data it refuses is the server's bug, not the caller's: logged with
   * the issues, answered as INTERNAL_ERROR. Raw results and error envelopes pass as they are.
   */
  private async checkedOutput(tool: McpCallableTool, value: unknown, context: McpToolContext): Promise<McpCallToolResult> {
    if (value instanceof McpRawResult) return value.result;
    const envelope = envelopeOf(value);
    if (envelope.status !== 'success') return envelopeToCallToolResult(envelope);
    const outcome = await tool.parseOutput!(envelope.data);
    if (outcome.valid) return envelopeToCallToolResult({ ...envelope, data: outcome.value });
    const issues = outcome.failures.map((failure) => `${failure.path || '(root)'}: ${failure.reasons.join('; ')}`).join(', ');
    this.logger.error(`${McpMessages.toolOutputInvalid(tool.site, clientText(context.requestId))}: ${clientText(issues, 500)}`);
    return errorResult(errorBody('INTERNAL_ERROR', MCP_ERROR_CODES.INTERNAL_ERROR.message()));
  }

  /**
   * `work`, a throw of it as an envelope ({@link failed}), or a TIMEOUT result (and the call's signal aborted) once
   * the tool's timeout passed.
   */
  private async attempt<T>(
    tool: McpCallableTool,
    context: McpToolContext,
    controller: AbortController,
    work: () => Promise<T>,
  ): Promise<T | McpCallToolResult> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<McpCallToolResult>((resolve) => {
      timer = setTimeout(() => {
        controller.abort(new ToolTimeout(`Tool "${tool.name}" timed out`));
        resolve(errorResult(errorBody('TIMEOUT', `The tool did not finish within ${tool.timeoutMs} ms.`, { retryable: true })));
      }, tool.timeoutMs);
    });
    try {
      return await Promise.race([work().catch((error: unknown) => this.failed(tool, error, context)), timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** What a throw of the tool (or of its guards) becomes: an envelope, logged once; control-flow signals pass. */
  private failed(tool: McpCallableTool, error: unknown, context: McpToolContext): McpCallToolResult {
    if (error instanceof McpControlFlowSignal) throw error;
    const { envelope, internal } = errorToEnvelope(error);
    // The request id is the client's own (a JSON-RPC id may be any string).
    const requestId = clientText(context.requestId);
    // A tool that stops once its call was cancelled or timed out ends as asked: no failure to report.
    if (internal && !context.signal.aborted) this.logger.error(`${McpMessages.toolFailed(tool.name, requestId)}: ${errorLogText(error)}`);
    // An answer the tool chose (its own error code, a cancellation): expected, so only at verbose.
    else this.logger.verbose(McpMessages.toolAnsweredError(tool.name, clientText(internal ? 'CANCELLED' : envelope.error.code), requestId));
    return envelopeToCallToolResult(envelope);
  }
}

/** What argument validation decides: the validator's acceptance (its `value` goes to the handler), or the VALIDATION_ERROR. */
export type ArgsCheck = { valid: true; value: object } | { valid: false; result: McpCallToolResult };

/** The validator's acceptance, or the VALIDATION_ERROR result naming fields as the caller sees them (transforms rename). */
function checkOf(tool: McpCallableTool, validation: ArgumentValidation): ArgsCheck {
  if (validation.valid) return validation;
  const toCaller = tool.toCallerField;
  const fields = toCaller ? validation.fields.map((field) => toCaller(field)) : validation.fields;
  return { valid: false, result: errorResult(errorBody('VALIDATION_ERROR', validation.message, { retryable: false, fields })) };
}

/** A plain value is the `data` of a success envelope; builders and raw results pass through. */
function toCallToolResult(value: unknown): McpCallToolResult {
  if (value instanceof McpRawResult) return value.result;
  return envelopeToCallToolResult(envelopeOf(value));
}

/** The envelope a tool's value (not a raw result) stands for. */
function envelopeOf(value: unknown): McpEnvelope {
  return value instanceof McpEnvelopeResult ? value.envelope : { status: 'success', data: value === undefined ? null : value };
}
