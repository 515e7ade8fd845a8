import { Inject, Injectable } from '@nestjs/common';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { McpCall, McpMethodHandler, McpMethodHandlerGroup } from '../../core/method-handler.interface.js';
import { McpMethodHandlerProvider } from '../../core/method-handler.decorator.js';
import { listPage } from '../../core/pagination-cursor.js';
import { McpResourceRegistry } from './mcp-resource.registry.js';
import { McpSkillRegistry } from '../skills/mcp-skill.registry.js';
import { skillManifestResources } from '../skills/skill-resources.js';
import { skillCaller } from '../skills/skill-caller.js';

/**
 * `resources/list` (the fixed resources) and `resources/templates/list` (the templates), a page at a time
 * (`lists.pageSize`). Served like `resources/read`. The SKILL.md of each skill the caller sees follows the resources.
 */
@McpMethodHandlerProvider()
@Injectable()
export class ResourcesListHandlers implements McpMethodHandlerGroup {
  readonly handlers: readonly McpMethodHandler[] = [
    {
      method: 'resources/list',
      isServed: () => this.registry.served || this.skills.served,
      handle: async ({ params, context }: McpCall) => {
        const resources = this.registry.listResourcesFor(context.principal?.scopes);
        const skills = await skillManifestResources(this.skills, skillCaller(context));
        return listPage('resources', skills.length > 0 ? [...resources, ...skills] : resources, params.cursor, this.options.lists.pageSize);
      },
    },
    this.lister('resources/templates/list', 'resourceTemplates', (scopes) => this.registry.listTemplatesFor(scopes)),
  ];

  constructor(
    private readonly registry: McpResourceRegistry,
    private readonly skills: McpSkillRegistry,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
  ) {}

  /** A scoped upstream's entries are listed only to callers holding its scopes, as its tools are. */
  private lister(method: string, key: string, list: (scopes: readonly string[] | undefined) => readonly unknown[]): McpMethodHandler {
    return {
      method,
      isServed: () => this.registry.served || this.skills.served,
      handle: ({ params, context }: McpCall) => listPage(key, list(context.principal?.scopes), params.cursor, this.options.lists.pageSize),
    };
  }
}
