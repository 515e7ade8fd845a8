import { Inject, Injectable } from '@nestjs/common';
import { MCP_RESOLVED_OPTIONS, type McpCoreSettings } from '../mcp-resolved-options.token.js';
import { JsonRpcErrorCode } from '../json-rpc/json-rpc-error-codes.js';
import { McpCapabilities } from '../mcp-capabilities.js';
import { McpProtocolError } from '../errors/protocol-error.js';
import { LOG_LEVELS, type McpLogLevel } from '../mcp-log-level.js';
import { negotiateProtocolVersion, revisionHas } from '../protocol-revisions.js';
import type { McpCall, McpMethodHandler, McpMethodHandlerGroup } from '../method-handler.interface.js';
import { McpMethodHandlerProvider } from '../method-handler.decorator.js';

/**
 * The methods every server serves: `initialize` (version negotiation: echo a supported version, else our latest;
 * capability declaration), `ping` (`{}` at any time, also before initialization) and `logging/setLevel` (later
 * `notifications/message` of this session are sent at that level or above).
 */
@McpMethodHandlerProvider()
@Injectable()
export class McpBaseHandlers implements McpMethodHandlerGroup {
  readonly handlers: readonly McpMethodHandler[] = [
    { method: 'initialize', handle: (call: McpCall) => this.initialize(call) },
    { method: 'ping', handle: () => ({}) },
    { method: 'logging/setLevel', handle: (call: McpCall) => setLogLevel(call) },
  ];
  private readonly serverInfo: Record<string, string>;

  constructor(
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpCoreSettings,
    private readonly capabilities: McpCapabilities,
  ) {
    this.serverInfo = { name: options.name, version: options.version };
    if (options.title) this.serverInfo.title = options.title;
    if (options.description) this.serverInfo.description = options.description;
  }

  private initialize({ params }: McpCall): Record<string, unknown> {
    if (typeof params.protocolVersion !== 'string' || params.protocolVersion.length === 0) {
      throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, 'Invalid params: initialize needs a protocolVersion string');
    }
    const result: Record<string, unknown> = {
      protocolVersion: negotiateProtocolVersion(params.protocolVersion),
      capabilities: this.capabilitiesFor(negotiateProtocolVersion(params.protocolVersion)),
      serverInfo: this.serverInfo,
    };
    if (this.options.instructions) result.instructions = this.options.instructions;
    return result;
  }

  /** Tasks exist where the revisions table says so (2025-11-25): other sessions are not offered them. */
  private capabilitiesFor(version: string): Record<string, unknown> {
    const all = this.capabilities.toJSON();
    if (!all.tasks || revisionHas(version, 'tasks')) return all;
    const { tasks: _tasks, ...rest } = all;
    return rest;
  }
}

async function setLogLevel({ params, context }: McpCall): Promise<Record<string, unknown>> {
  const level = params.level;
  if (typeof level !== 'string' || !LOG_LEVELS.includes(level as McpLogLevel)) {
    throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, `Invalid params: level must be one of ${LOG_LEVELS.join(', ')}`);
  }
  await context.setLogLevel?.(level as McpLogLevel);
  return {};
}
