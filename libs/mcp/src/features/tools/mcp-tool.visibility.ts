import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { McpMessages } from '../../core/errors/mcp.messages.js';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { JsonRpcId } from '../../core/json-rpc/json-rpc.types.js';
import { decodeCursor, encodeCursor } from '../../core/pagination-cursor.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import { isAppOnlyTool, clientSupportsUi } from '../apps/tool-ui.js';
import {
  appOnlyRule,
  filterRule,
  guardsRule,
  visibleToRule,
  type McpToolVisibilityRule,
  type McpVisibilityRequest,
} from '../transforms/tool-visibility.rules.js';
import type { McpToolDefinition, McpToolDescriptor } from './mcp-tool-definition.interface.js';
import type { McpToolFilter } from '../../options/mcp-tool-filter.interface.js';
import { McpToolRegistry } from './mcp-tool.registry.js';

/**
 * Decides which tools exist for a caller: scopes, then the per-caller rules in order (an app-only MCP Apps tool for
 * clients that declared the extension, `visibleTo`, `tools.filters`, with `tools.hideGuarded` the tool's guards).
 * Every era and transport reaches tools through here: `tools/call` answers a hidden tool like a missing one (-32602).
 * A predicate that throws hides the tool.
 */
@Injectable()
export class McpToolVisibility implements OnModuleInit {
  private readonly logger = new Logger('McpModule');
  private rules: McpToolVisibilityRule[] = [appOnlyRule, visibleToRule, guardsRule];

  constructor(
    private readonly registry: McpToolRegistry,
    private readonly moduleRef: ModuleRef,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
  ) {}

  onModuleInit(): void {
    const filters = this.options.tools.filters.map((type) => {
      let filter: McpToolFilter;
      try {
        filter = this.moduleRef.get(type, { strict: false });
      } catch {
        throw new McpConfigurationError(McpMessages.toolFilterNotProvider(type.name));
      }
      if (typeof filter?.isVisible !== 'function') throw new McpConfigurationError(McpMessages.toolFilterInvalid(type.name));
      return filterRule(filter);
    });
    this.rules = [appOnlyRule, visibleToRule, ...filters, guardsRule];
  }

  /**
   * One `tools/list` page for this caller, and the next cursor when one more visible tool follows. The cursor is a
   * position in the whole catalog, so a page runs the per-caller rules of the tools it walks over only (and one more).
   */
  async visiblePage(
    request: McpVisibilityRequest,
    cursor: unknown,
    pageSize: number,
    requestId: JsonRpcId = 0,
  ): Promise<{ tools: readonly McpToolDescriptor[]; nextCursor?: string }> {
    const descriptors = this.registry.listDescriptors();
    let index = decodeCursor(cursor, descriptors.length);
    const hideAppOnly = this.registry.hasAppOnly && !clientSupportsUi(request.clientCapabilities);
    const scopes = this.registry.hasScopes ? request.principal?.scopes : undefined;
    if (!hideAppOnly && scopes === undefined && !this.registry.hasPerCallerRules) {
      const end = index + pageSize;
      const tools = index === 0 && end >= descriptors.length ? descriptors : descriptors.slice(index, end);
      return end < descriptors.length ? { tools, nextCursor: encodeCursor(end) } : { tools };
    }
    const tools = this.registry.inOrder();
    const page: McpToolDescriptor[] = [];
    while (index < tools.length) {
      // The rules of as many tools as the page still lacks, plus one to know whether another page follows, at once.
      const chunk = tools.slice(index, index + pageSize + 1 - page.length);
      const shown = await this.listedTo(chunk, request, requestId);
      for (let offset = 0; offset < chunk.length; offset++) {
        if (!shown[offset]) continue;
        if (page.length === pageSize) return { tools: page, nextCursor: encodeCursor(index + offset) };
        page.push(chunk[offset].descriptor);
      }
      index += chunk.length;
    }
    return { tools: page };
  }

  /**
   * Which of `tools` `tools/list` would show this caller (scopes held, MCP Apps extension, the per-caller rules),
   * index for index; their rules run at once.
   */
  listedTo(tools: readonly McpToolDefinition[], request: McpVisibilityRequest, requestId: JsonRpcId = 0): Promise<boolean[]> {
    const hideAppOnly = this.registry.hasAppOnly && !clientSupportsUi(request.clientCapabilities);
    const scopes = this.registry.hasScopes ? request.principal?.scopes : undefined;
    const held = scopes && new Set(scopes);
    return Promise.all(
      tools.map((tool) =>
        (held && !tool.scopes.every((scope) => held.has(scope))) || (hideAppOnly && isAppOnlyTool(tool.descriptor))
          ? false
          : this.isVisible(tool, request, requestId),
      ),
    );
  }

  /**
   * The tool of this name when this caller may see it; undefined for a hidden tool and a missing one alike. A value,
   * not a promise, when every rule answered at once (the usual case: no tick per call).
   */
  visibleTool(
    name: string,
    request: McpVisibilityRequest,
    requestId: JsonRpcId = 0,
  ): McpToolDefinition | undefined | Promise<McpToolDefinition | undefined> {
    const tool = this.registry.get(name);
    if (!tool) return undefined;
    const visible = this.isVisible(tool, request, requestId);
    return typeof visible === 'boolean' ? (visible ? tool : undefined) : visible.then((shown) => (shown ? tool : undefined));
  }

  /**
   * Runs the rules in order; synchronous verdicts are read at once, the first promise hands the rest to
   * {@link settle}. Scopes are not checked here: a tool the caller lacks scopes for is listed away but refused with
   * 403 (step-up).
   */
  isVisible(tool: McpToolDefinition, request: McpVisibilityRequest, requestId: JsonRpcId = 0): boolean | Promise<boolean> {
    for (let index = 0; index < this.rules.length; index++) {
      let verdict: boolean | Promise<boolean>;
      try {
        verdict = this.rules[index](tool, request, requestId);
      } catch (error) {
        return this.hidden(tool, error);
      }
      if (typeof verdict !== 'boolean') return this.settle(verdict, index, tool, request, requestId);
      if (!verdict) return false;
    }
    return true;
  }

  private async settle(
    pending: Promise<boolean>,
    index: number,
    tool: McpToolDefinition,
    request: McpVisibilityRequest,
    requestId: JsonRpcId,
  ): Promise<boolean> {
    try {
      if (!(await pending)) return false;
      for (let next = index + 1; next < this.rules.length; next++) if (!(await this.rules[next](tool, request, requestId))) return false;
      return true;
    } catch (error) {
      return this.hidden(tool, error);
    }
  }

  /** A rule that throws hides the tool (logged). */
  private hidden(tool: McpToolDefinition, error: unknown): false {
    this.logger.warn(`Tool ${tool.name} is hidden: its visibility check threw (${error instanceof Error ? error.message : String(error)})`);
    return false;
  }
}
