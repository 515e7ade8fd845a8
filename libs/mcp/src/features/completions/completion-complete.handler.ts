import { Injectable, Logger } from '@nestjs/common';
import { McpMessages } from '../../core/errors/mcp.messages.js';
import type { JsonRpcParams } from '../../core/json-rpc/json-rpc.types.js';
import type { McpCall, McpMethodHandler } from '../../core/method-handler.interface.js';
import { McpMethodHandlerProvider } from '../../core/method-handler.decorator.js';
import { JsonRpcErrorCode } from '../../core/json-rpc/json-rpc-error-codes.js';
import { McpCapabilities } from '../../core/mcp-capabilities.js';
import { McpProtocolError } from '../../core/errors/protocol-error.js';
import { clientText } from '../../core/client-text.js';
import { internalError, toProtocolError, withHandlerContext } from '../feature-handler.js';
import { McpCompletionTargets } from './completion-targets.js';
import { describeRef } from './completion-target.js';
import { toCompletionResult } from './completion-values.js';
import type { McpCompletionRef } from './mcp-completion-options.interface.js';
import { McpCompletionRegistry } from './mcp-completion.registry.js';
import { isPlainObject } from '../../core/plain-object.js';

/** The checked params of one request. */
interface CompleteParams {
  ref: McpCompletionRef;
  argument: { name: string; value: string };
  arguments: Record<string, string>;
}

/**
 * `completion/complete`: malformed params and undeclared refs or arguments are -32602, an argument without a completer
 * gets no values, a failing completer is -32603; without the `completions` capability the method is -32601.
 */
@McpMethodHandlerProvider()
@Injectable()
export class CompletionCompleteHandler implements McpMethodHandler {
  readonly method = 'completion/complete';
  private readonly logger = new Logger('McpModule');

  constructor(
    private readonly registry: McpCompletionRegistry,
    private readonly targets: McpCompletionTargets,
    private readonly capabilities: McpCapabilities,
  ) {}

  async handle(call: McpCall): Promise<Record<string, unknown>> {
    // Registered at boot before prompts and templates are known, so the capability decides at request time.
    if (!this.capabilities.has('completions'))
      throw new McpProtocolError(JsonRpcErrorCode.METHOD_NOT_FOUND, `Method not found: ${this.method}`);
    const params = parseParams(call.params);
    const target = this.targets.find(params.ref, false, call.context.principal?.scopes);
    if (!target) throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, `Invalid params: unknown ${describeRef(params.ref)}`);
    if (!target.arguments.includes(params.argument.name)) {
      throw new McpProtocolError(
        JsonRpcErrorCode.INVALID_PARAMS,
        `Invalid params: ${describeRef(params.ref)} has no argument "${clientText(params.argument.name)}"`,
      );
    }
    const completer = this.registry.get(target.ref, params.argument.name);
    if (!completer) return { completion: { values: [] } };

    const label = describeRef(target.ref);
    const value = await withHandlerContext(call, (base) =>
      completer.handler(params.argument.value, { ...base, ref: params.ref, argument: params.argument, arguments: params.arguments }),
    ).catch((error: unknown) => {
      throw toProtocolError(error, this.logger, McpMessages.completionFailed(label, call.id));
    });
    const completion = toCompletionResult(value);
    if (!completion) throw internalError(this.logger, McpMessages.completionBadResult(completer.site));
    return { completion };
  }
}

function parseParams(params: JsonRpcParams): CompleteParams {
  const { ref, argument, context } = params;
  let parsedRef: McpCompletionRef | undefined;
  if (isPlainObject(ref) && ref.type === 'ref/prompt' && typeof ref.name === 'string') parsedRef = { type: 'ref/prompt', name: ref.name };
  if (isPlainObject(ref) && ref.type === 'ref/resource' && typeof ref.uri === 'string') parsedRef = { type: 'ref/resource', uri: ref.uri };
  if (!parsedRef) throw invalid("ref must be { type: 'ref/prompt', name } or { type: 'ref/resource', uri }");
  if (!isPlainObject(argument) || typeof argument.name !== 'string' || typeof argument.value !== 'string') {
    throw invalid('argument must be { name, value } with string members');
  }
  if (context !== undefined && !isPlainObject(context)) throw invalid('context must be an object');
  const others = context?.arguments;
  if (others !== undefined && (!isPlainObject(others) || !Object.values(others).every((item) => typeof item === 'string'))) {
    throw invalid('context.arguments must map argument names to strings');
  }
  return {
    ref: parsedRef,
    argument: { name: argument.name, value: argument.value },
    arguments: { ...((others ?? {}) as Record<string, string>) },
  };
}

function invalid(problem: string): McpProtocolError {
  return new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, `Invalid params: ${problem}`);
}
