import { Injectable, Logger } from '@nestjs/common';
import { MCP_TOOL_NAME_PATTERN, methodNameToToolName } from '../tools/tool-name.js';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { McpMessages } from '../../core/errors/mcp.messages.js';
import { McpCapabilities } from '../../core/mcp-capabilities.js';
import { McpProviderMethods, type ProviderMethod } from '../provider-methods.js';
import { DtoSchemaFactory } from '../tools/schema/dto-schema.factory.js';
import type { McpPromptContext } from './mcp-prompt-context.interface.js';
import { promptDefinition, type McpPromptDefinition } from './mcp-prompt-definition.interface.js';
import type { McpPromptArgument, McpPromptOptions } from './mcp-prompt-options.interface.js';
import { McpPromptRegistry } from './mcp-prompt.registry.js';
import type { McpComponent, McpComponentProvider } from '../components/mcp-component-provider.interface.js';
import { argumentListProblem, argumentsFromSchema, standardPromptArguments } from './prompt-arguments.js';
import { isStandardSchema } from '../../core/standard-schema.js';
import { loadStandardConverters } from '../tools/schema/standard-json-schema.js';
import { MCP_METADATA } from '../mcp-metadata.accessor.js';
import { McpDtoArgumentValidator } from '../../execution/validation/dto-argument.validator.js';

/**
 * The prompts of `@McpPrompt()` methods with their arguments (declared, or read from a DTO; a component provider)
 * and, once loaded, when there is at least one, declares `prompts` (and `completions`, for their arguments);
 * the prompts method handlers then answer `isServed()` with true. Misconfiguration throws here, naming the method.
 */
@Injectable()
export class McpPromptExplorer implements McpComponentProvider {
  private readonly logger = new Logger('McpModule');
  private readonly schemas = new DtoSchemaFactory({ debug: (message) => this.logger.debug(message) });

  constructor(
    private readonly providerMethods: McpProviderMethods,
    private readonly registry: McpPromptRegistry,
    private readonly capabilities: McpCapabilities,
  ) {}

  /** Loads the JSON Schema converters the prompts' Standard Schemas need. */
  prepare(): Promise<void> {
    const decorated = [...this.providerMethods.decorated(MCP_METADATA.prompt)];
    return loadStandardConverters(decorated.map(([, options]) => options.arguments).filter(isStandardSchema));
  }

  *components(): Iterable<McpComponent> {
    for (const [method, options] of this.providerMethods.decorated(MCP_METADATA.prompt))
      yield { kind: 'prompt', definition: this.describe(method, options) };
  }

  loaded(): void {
    // Nothing to serve, now or at runtime (`lists.listChanged: { prompts: true }`): no capability, the methods stay -32601.
    if (!this.registry.served) return;
    this.capabilities.declare('prompts');
    // Prompt arguments can be completed, answered with no values when nobody completes them.
    this.capabilities.declare('completions');
  }

  private describe(method: ProviderMethod, options: McpPromptOptions): McpPromptDefinition {
    const { site } = method;
    if (typeof options.description !== 'string' || options.description.trim() === '') {
      throw new McpConfigurationError(McpMessages.promptMissingDescription(site));
    }
    const name = options.name ?? methodNameToToolName(method.methodName);
    if (typeof name !== 'string' || !MCP_TOOL_NAME_PATTERN.test(name))
      throw new McpConfigurationError(McpMessages.invalidPromptName(site, String(name)));

    // An explicit @McpArgs() on a Record is fine with declared arguments: no DTO then.
    const argsType = this.providerMethods.accessor.getArgsParam(method.prototype, method.methodName).dto;
    if (argsType && options.arguments !== undefined) throw new McpConfigurationError(McpMessages.promptArgumentsTwice(site));
    const standard = standardPromptArguments(options.arguments, site, 'arguments');
    const declared =
      standard?.declared ??
      (argsType
        ? argumentsFromSchema(this.schemas.forClass(argsType))
        : this.declaredArguments(site, options.arguments as McpPromptArgument[]));
    return promptDefinition({
      name,
      site,
      title: options.title,
      description: options.description,
      arguments: declared,
      validator: standard?.validator ?? (argsType && new McpDtoArgumentValidator(argsType)),
      handler: this.providerMethods.handlerOf<McpPromptContext>(method),
    });
  }

  private declaredArguments(site: string, list: McpPromptArgument[] | undefined): McpPromptArgument[] {
    if (list === undefined) return [];
    const problem = argumentListProblem(list);
    if (problem) throw new McpConfigurationError(McpMessages.invalidPromptArguments(site, problem));
    return list.map((argument) => ({ ...argument }));
  }
}
