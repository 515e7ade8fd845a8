import { Inject, Injectable, Logger } from '@nestjs/common';
import { McpMessages } from '../../core/errors/mcp.messages.js';
import type { McpCall, McpMethodHandler, McpMethodHandlerGroup } from '../../core/method-handler.interface.js';
import { McpMethodHandlerProvider } from '../../core/method-handler.decorator.js';
import { JsonRpcErrorCode } from '../../core/json-rpc/json-rpc-error-codes.js';
import { McpProtocolError } from '../../core/errors/protocol-error.js';
import { clientText } from '../../core/client-text.js';
import { listPage } from '../../core/pagination-cursor.js';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import { internalError, toProtocolError, withHandlerContext } from '../feature-handler.js';
import { McpPromptRegistry } from './mcp-prompt.registry.js';
import { checkPromptArguments } from './prompt-arguments.js';
import { toGetPromptResult } from './prompt-messages.js';
import { isPlainObject } from '../../core/plain-object.js';

/**
 * `prompts/list` and `prompts/get`, served when the registry is (otherwise both stay -32601). In `prompts/get` an
 * unknown prompt and any argument problem are -32602 (the spec's choice for prompts); a failing handler is -32603.
 */
@McpMethodHandlerProvider()
@Injectable()
export class PromptsHandlers implements McpMethodHandlerGroup {
  readonly handlers: readonly McpMethodHandler[] = [
    {
      method: 'prompts/list',
      isServed: () => this.registry.served,
      handle: ({ params, context }: McpCall) =>
        listPage('prompts', this.registry.listFor(context.principal?.scopes), params.cursor, this.options.lists.pageSize),
    },
    { method: 'prompts/get', isServed: () => this.registry.served, handle: (call: McpCall) => this.get(call) },
  ];
  private readonly logger = new Logger('McpModule');

  constructor(
    private readonly registry: McpPromptRegistry,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
  ) {}

  private async get(call: McpCall): Promise<Record<string, unknown>> {
    const { name, arguments: raw } = call.params;
    if (typeof name !== 'string')
      throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, 'Invalid params: prompts/get needs a prompt name');
    if (raw !== undefined && raw !== null && !isPlainObject(raw))
      throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, 'Invalid params: arguments must be an object');
    const prompt = this.registry.get(name);
    if (!prompt) throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, `Unknown prompt: ${clientText(name)}`);

    let args: object = checkPromptArguments(prompt.arguments, (raw ?? {}) as Record<string, unknown>);
    if (prompt.validator) {
      const validation = await prompt.validator.validate(args as Record<string, unknown>);
      if (!validation.valid) throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, validation.message, { fields: validation.fields });
      args = validation.value;
    }
    const value = await withHandlerContext(call, (base) => prompt.handler(args, { ...base, promptName: name })).catch((error: unknown) => {
      throw toProtocolError(error, this.logger, McpMessages.promptFailed(name, call.id));
    });
    const result = toGetPromptResult(value);
    if (!result) throw internalError(this.logger, McpMessages.promptBadResult(prompt.site));
    return result as unknown as Record<string, unknown>;
  }
}
