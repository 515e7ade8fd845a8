import { Injectable, Logger, NotFoundException } from '@nestjs/common';
import { McpMessages } from '../../core/errors/mcp.messages.js';
import type { McpCall, McpMethodHandler } from '../../core/method-handler.interface.js';
import { McpMethodHandlerProvider } from '../../core/method-handler.decorator.js';
import { internalError, toProtocolError, withHandlerContext } from '../feature-handler.js';
import { McpResourceRegistry } from './mcp-resource.registry.js';
import { toReadResourceResult } from './resource-contents.js';
import { resourceNotFound, uriParam } from './resource-uri-param.js';
import { McpSkillRegistry } from '../skills/mcp-skill.registry.js';
import { readSkillFile } from '../skills/skill-resources.js';
import { skillCaller } from '../skills/skill-caller.js';

/**
 * `resources/read`: a fixed resource first, then templates in registration order. An unknown URI, or a handler
 * throwing `NotFoundException`, is -32002 with the URI as data (after the skill files the caller sees); any other failure is a bare -32603 (logged).
 */
@McpMethodHandlerProvider()
@Injectable()
export class ResourcesReadHandler implements McpMethodHandler {
  readonly method = 'resources/read';
  private readonly logger = new Logger('McpModule');

  constructor(
    private readonly registry: McpResourceRegistry,
    private readonly skills: McpSkillRegistry,
  ) {}

  /** Like every `resources/*` method: served when the registry is; otherwise unknown (-32601), its capability undeclared. */
  isServed(): boolean {
    return this.registry.served || this.skills.served;
  }

  async handle(call: McpCall): Promise<Record<string, unknown>> {
    const uri = uriParam(call.params, this.method);
    const match = this.registry.resolve(uri);
    if (!match) return this.readSkill(call, uri);
    const { name: resourceName, uriTemplate } = match;
    const value = await withHandlerContext(call, (base) =>
      match.handler(match.variables, { ...base, uri, resourceName, ...(uriTemplate !== undefined && { uriTemplate }) }),
    ).catch((error: unknown) => {
      // A template matches URIs whose data may not exist: the handler says so with the usual Nest exception.
      if (error instanceof NotFoundException) throw resourceNotFound(uri);
      throw toProtocolError(error, this.logger, McpMessages.resourceFailed(uri, call.id));
    });
    const result = toReadResourceResult(value, uri, match.mimeType);
    if (!result) throw internalError(this.logger, McpMessages.resourceBadResult(match.site));
    return result as unknown as Record<string, unknown>;
  }

  private async readSkill(call: McpCall, uri: string): Promise<Record<string, unknown>> {
    const result = await readSkillFile(this.skills, uri, skillCaller(call.context), call).catch((error: unknown) => {
      throw toProtocolError(error, this.logger, McpMessages.resourceFailed(uri, call.id));
    });
    if (!result) throw resourceNotFound(uri);
    return result;
  }
}
