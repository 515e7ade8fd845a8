import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { MCP_RESOLVED_OPTIONS } from '../../../core/mcp-resolved-options.token.js';
import { McpConfigurationError } from '../../../core/errors/mcp-configuration.error.js';
import { McpMessages } from '../../../core/errors/mcp.messages.js';
import type { McpResolvedOptions, McpToolSearchOptions } from '../../../options/mcp-module-options.interface.js';
import { isPlainObject } from '../../../core/plain-object.js';
import type { McpToolContext } from '../../../core/mcp-tool-context.interface.js';
import type { McpToolDefinition, McpToolDescriptor } from '../../tools/mcp-tool-definition.interface.js';
import { McpToolRegistry } from '../../tools/mcp-tool.registry.js';
import { McpToolVisibility } from '../../tools/mcp-tool.visibility.js';
import type { McpVisibilityRequest } from '../tool-visibility.rules.js';
import type { McpToolCatalogTransform } from '../mcp-tool-catalog-transform.interface.js';
import { Bm25Index, tokenize } from './bm25.index.js';

/** `tools.search` once resolved (unset: `enabled: false`). */
type ResolvedToolSearch = Required<McpToolSearchOptions>;

export const SEARCH_TOOL = 'search_tools';
export const CALL_TOOL = 'call_tool';

/** `call_tool`: listed in `replace` mode; a call of it is a call of the tool it names (see {@link McpToolSearchTransform.aliased}). */
const CALL_TOOL_DESCRIPTOR: McpToolDescriptor = {
  name: CALL_TOOL,
  description:
    'Calls a tool found with search_tools by its name, with the arguments its inputSchema describes. Answers exactly as the tool itself would.',
  inputSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'The name of the tool, as search_tools gave it' },
      arguments: { type: 'object', description: 'The arguments of the tool' },
    },
    required: ['name'],
    additionalProperties: false,
  },
};

/**
 * What visibility reads of the caller of `search_tools`. The client's capabilities are not part of a tool's context,
 * so MCP Apps tools for the app only never come up: they are not the model's to find.
 */
function requestOf(context: McpToolContext): McpVisibilityRequest {
  const { principal, transport, protocolVersion, sessionId } = context;
  return { principal, transport, protocolVersion, sessionId } as McpVisibilityRequest;
}

/** The words a tool is found by: its name and title weigh more than its description and argument names. */
function wordsOf(descriptor: McpToolDescriptor): string[] {
  const name = tokenize(descriptor.name);
  const title = tokenize(descriptor.title ?? '');
  const properties = isPlainObject(descriptor.inputSchema.properties) ? Object.keys(descriptor.inputSchema.properties) : [];
  return [...name, ...name, ...name, ...title, ...title, ...tokenize(descriptor.description ?? ''), ...tokenize(properties.join(' '))];
}

/**
 * Tool search (`tools.search` option) as a catalogue transform: it adds `search_tools`, which queries a BM25 index of
 * the catalogue as the providers and `tools.transforms` left it, for one caller (only tools that caller may see,
 * decided by the same rules as `tools/list`); in `replace` mode `tools/list` shows `search_tools` and `call_tool`
 * instead of the catalogue, whose tools stay callable by name. The index follows every change of the registry (a
 * tool registered, replaced or removed is indexed or dropped on its own, not the whole catalogue again).
 */
@Injectable()
export class McpToolSearchTransform implements McpToolCatalogTransform, OnApplicationBootstrap {
  private readonly index = new Bm25Index();
  /** The registry's list the index reflects; a new list means the registry changed. */
  private indexed: readonly McpToolDefinition[] = [];
  private readonly ids = new Map<McpToolDefinition, number>();
  private readonly byId = new Map<number, McpToolDefinition>();
  private nextId = 0;
  private readonly searchTool?: McpToolDefinition;
  readonly reserved: readonly string[] = [];
  readonly listed?: readonly McpToolDescriptor[];

  constructor(
    private readonly registry: McpToolRegistry,
    private readonly visibility: McpToolVisibility,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
  ) {
    if (!this.enabled) return;
    this.reserved = [CALL_TOOL, SEARCH_TOOL];
    this.searchTool = registry.buildOwn({
      name: SEARCH_TOOL,
      description:
        'Finds the tools of this server that match a query (words of their names, descriptions and arguments), best first, with the inputSchema to call them.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', minLength: 1, maxLength: 500, description: 'What the tool should do, in a few words' },
          limit: { type: 'integer', minimum: 1, maximum: this.settings.maxResults, description: 'Most tools to return' },
        },
        required: ['query'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true },
      handler: async (args: { query: string; limit?: number }, context) => ({
        tools: await this.search(args.query, requestOf(context), args.limit ?? this.settings.maxResults),
      }),
    });
    // `replace` mode: the search tools stand for the catalogue (every tool stays callable by name).
    if (this.settings.mode === 'replace') this.listed = [this.searchTool.descriptor, CALL_TOOL_DESCRIPTOR];
  }

  /** The resolved `tools.search` option. */
  private get settings(): ResolvedToolSearch {
    return this.options.tools.search as ResolvedToolSearch;
  }

  get enabled(): boolean {
    return this.settings.enabled;
  }

  /** The index is built at boot, once the registries are filled, not on the first search. */
  onApplicationBootstrap(): void {
    if (this.searchTool) this.sync();
  }

  /** `search_tools`; a tool of the catalogue holding one of the search tools' names fails the boot. */
  tools(catalogue: readonly McpToolDefinition[]): readonly McpToolDefinition[] {
    if (!this.searchTool) return [];
    const taken = catalogue.find((tool) => this.reserved.includes(tool.name));
    if (taken) throw new McpConfigurationError(McpMessages.toolSearchNameTaken(taken.name, taken.site));
    return [this.searchTool];
  }

  /**
   * The params of a `tools/call` of `call_tool` as those of the tool it names, so that tool is looked up for the
   * caller, guarded, limited and validated as when called by its own name; other params are returned as they are.
   */
  aliased(params: Record<string, unknown>): Record<string, unknown> {
    if (params.name !== CALL_TOOL || !isPlainObject(params.arguments)) return params;
    const { name, arguments: args } = params.arguments;
    return { ...params, name, arguments: args ?? {} };
  }

  /** Up to `limit` of the tools this caller may see that match `query`, best first. */
  async search(query: string, request: McpVisibilityRequest, limit = this.settings.maxResults): Promise<McpToolDescriptor[]> {
    this.sync();
    const words = tokenize(query);
    const found: McpToolDescriptor[] = [];
    // Visibility runs in rank order, `limit` tools at a time, only until the answer is full: a search never
    // probes the whole catalog.
    for (let skip = 0; found.length < limit; skip += limit) {
      const ranked = this.index.search(words, limit, skip);
      const candidates = ranked.map(({ id }) => this.byId.get(id)!);
      const shown = await this.visibility.listedTo(candidates, request);
      for (let i = 0; i < candidates.length && found.length < limit; i++) if (shown[i]) found.push(candidates[i].descriptor);
      if (ranked.length < limit) break;
    }
    return found;
  }

  /** Brings the index in step with the registry: drops the tools that left (or were replaced), adds the new ones. */
  private sync(): void {
    const current = this.registry.inOrder();
    if (current === this.indexed) return;
    const present = new Set(current);
    for (const [tool, id] of this.ids) {
      if (present.has(tool)) continue;
      this.index.remove(id);
      this.ids.delete(tool);
      this.byId.delete(id);
    }
    for (const tool of current) {
      if (tool === this.searchTool || this.ids.has(tool)) continue;
      const id = this.nextId++;
      this.ids.set(tool, id);
      this.byId.set(id, tool);
      this.index.add(id, wordsOf(tool.descriptor));
    }
    this.indexed = current;
  }
}
