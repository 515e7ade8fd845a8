import { Inject, Injectable, Logger } from '@nestjs/common';
import { McpParamType } from '../../execution/mcp-params.factory.js';
import { findParamIndex } from './mcp-param.decorators.js';
import { methodNameToToolName } from './tool-name.js';
import { checkToolNameAndTimeout } from './tool-definition.checks.js';
import { McpToolHandlerFactory } from '../../execution/tool-handler.factory.js';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { McpBootNotices } from '../../core/boot-notices.js';
import { McpMessages } from '../../core/errors/mcp.messages.js';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { McpToolDefinition } from './mcp-tool-definition.interface.js';
import type { McpToolOptions } from './mcp-tool-options.interface.js';
import { DtoSchemaFactory } from './schema/dto-schema.factory.js';
import { RawSchemaCompiler } from './schema/raw-schema.compiler.js';
import { assembleTool } from './tool-definition.assembly.js';
import { loadStandardConverters } from './schema/standard-json-schema.js';
import { isStandardSchema } from '../../core/standard-schema.js';
import { MCP_METADATA, type McpDtoClass } from '../mcp-metadata.accessor.js';
import { McpProviderMethods, type ProviderMethod } from '../provider-methods.js';
import type { McpComponent, McpComponentProvider } from '../components/mcp-component-provider.interface.js';

/** The tools of `@McpTool()` methods (a component provider); misconfiguration fails `app.init()` naming the method. */
@Injectable()
export class McpToolExplorer implements McpComponentProvider {
  private readonly logger = new Logger('McpModule');
  private readonly schemas = {
    dto: new DtoSchemaFactory({
      debug: (message) => this.logger.debug(message),
      warn: (message) => this.notices.warn('McpModule', message),
    }),
    raw: new RawSchemaCompiler(),
  };

  constructor(
    private readonly providerMethods: McpProviderMethods,
    private readonly handlers: McpToolHandlerFactory,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
    private readonly notices: McpBootNotices,
  ) {}

  /** Loads the JSON Schema converters the tools' Standard Schemas need (an optional vendor package each). */
  prepare(): Promise<void> {
    const decorated = [...this.providerMethods.decorated(MCP_METADATA.tool)];
    const schemas = decorated.flatMap(([, options]) => [options.input, options.output].filter(isStandardSchema));
    return loadStandardConverters(schemas);
  }

  *components(): Iterable<McpComponent> {
    for (const [method, options] of this.providerMethods.decorated(MCP_METADATA.tool))
      yield { kind: 'tool', definition: this.describe(method, options) };
    this.schemas.dto.clear();
  }

  private describe({ wrapper, prototype, methodName, site }: ProviderMethod, options: McpToolOptions): McpToolDefinition {
    if (typeof options.description !== 'string' || options.description.trim() === '') {
      throw new McpConfigurationError(McpMessages.missingDescription(site));
    }
    const name = options.name ?? methodNameToToolName(methodName);
    const timeoutMs = options.timeoutMs ?? this.options.tools.timeoutMs;
    checkToolNameAndTimeout(site, name, timeoutMs);

    const described = options.input !== undefined || options.inputSchema !== undefined;
    const argsType = this.argsTypeOf(prototype, methodName, site, described);
    const tool = assembleTool({ site, name, options, argsType, job: Boolean(options.job) }, this.schemas);
    if (described) this.bindRawArgs(prototype, methodName);
    const job = options.job ? { estimatedSeconds: typeof options.job === 'object' ? options.job.estimatedSeconds : undefined } : undefined;
    return {
      ...tool,
      declaredBy: prototype.constructor as McpToolDefinition['declaredBy'],
      timeoutMs,
      job,
      ...this.handlers.createTool(wrapper, methodName, site),
      ...(this.options.tools.hideGuarded && { guardsAdmit: this.handlers.guardsAdmit(wrapper, methodName) }),
    };
  }

  /**
   * With a hand-written schema the plain arguments go to `@McpArgs()`, or to an undecorated first parameter
   * even when others carry MCP decorators (Nest only fills decorated parameters then).
   */
  private bindRawArgs(prototype: object, methodName: string): void {
    const params = this.providerMethods.accessor.getParams(prototype, methodName);
    if (findParamIndex(params, McpParamType.ARGS) === undefined) this.providerMethods.bindPayload({ prototype, methodName });
  }

  /** The arguments' DTO (`getArgsParam`); arguments `described` by `input` or `inputSchema` need none (`z.infer<…>`). */
  private argsTypeOf(prototype: object, methodName: string, site: string, described: boolean): McpDtoClass | undefined {
    const { explicit, dto } = this.providerMethods.accessor.getArgsParam(prototype, methodName);
    if (explicit && !dto && !described) throw new McpConfigurationError(McpMessages.argsNotAClass(site));
    if (!explicit && dto) this.providerMethods.bindPayload({ prototype, methodName });
    return dto;
  }
}
