import { Inject, Injectable } from '@nestjs/common';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { McpCall, McpMethodHandler, McpMethodHandlerGroup } from '../../core/method-handler.interface.js';
import { McpMethodHandlerProvider } from '../../core/method-handler.decorator.js';
import { JsonRpcErrorCode } from '../../core/json-rpc/json-rpc-error-codes.js';
import { McpProtocolError } from '../../core/errors/protocol-error.js';
import { listPage } from '../../core/pagination-cursor.js';
import { uriParam } from '../resources/resource-uri-param.js';
import { McpSkillRegistry } from './mcp-skill.registry.js';
import { skillCaller } from './skill-caller.js';

/**
 * The methods of the Skills extension: `skills/list` (a page of entries, an entry never split), `skills/get` (one
 * entry by its SKILL.md URI, -32602 when the caller sees none there) and `resources/directory/read` (the direct
 * children of a skill directory, -32602 for anything else). Served only when skills are configured.
 */
@McpMethodHandlerProvider()
@Injectable()
export class SkillsHandlers implements McpMethodHandlerGroup {
  readonly handlers: readonly McpMethodHandler[] = [
    {
      method: 'skills/list',
      isServed: () => this.registry.served,
      handle: async ({ params, context }: McpCall) => {
        const skills = await this.registry.listed(skillCaller(context));
        return listPage(
          'skills',
          skills.map((skill) => skill.entry),
          params.cursor,
          this.options.lists.pageSize,
        );
      },
    },
    {
      method: 'skills/get',
      isServed: () => this.registry.served,
      handle: async ({ params, context }: McpCall) => {
        const uri = uriParam(params, 'skills/get');
        const entry = await this.registry.entry(uri, skillCaller(context));
        if (!entry) throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, `Invalid params: no skill is served at ${uri}`);
        return { skill: entry };
      },
    },
    {
      method: 'resources/directory/read',
      isServed: () => this.registry.served,
      handle: async ({ params, context, signal }: McpCall) => {
        const uri = uriParam(params, 'resources/directory/read');
        const children = await this.registry.directory(uri, skillCaller(context), { context, signal });
        if (!children) throw new McpProtocolError(JsonRpcErrorCode.INVALID_PARAMS, `Invalid params: ${uri} is not a directory resource`);
        return listPage('resources', children, params.cursor, this.options.lists.pageSize);
      },
    },
  ];

  constructor(
    private readonly registry: McpSkillRegistry,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
  ) {}
}
