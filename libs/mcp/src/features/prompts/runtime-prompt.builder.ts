import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { McpMessages } from '../../core/errors/mcp.messages.js';
import type { McpRuntimeBuilder } from '../components/runtime-registrations.js';
import type { McpComponent } from '../components/mcp-component-provider.interface.js';
import { MCP_TOOL_NAME_PATTERN } from '../tools/tool-name.js';
import { DtoSchemaFactory } from '../tools/schema/dto-schema.factory.js';
import { promptDefinition } from './mcp-prompt-definition.interface.js';
import type { McpPromptRegistration } from './mcp-prompt-registration.interface.js';
import { McpPromptRuntimeMessages as Messages } from './mcp-prompt-runtime.messages.js';
import { argumentListProblem, argumentsFromSchema, standardPromptArguments } from './prompt-arguments.js';
import { McpDtoArgumentValidator } from '../../execution/validation/dto-argument.validator.js';

const KEYS = ['name', 'title', 'description', 'arguments', 'args', 'handler'] as const;

/** A runtime prompt, built and checked by the rules of `@McpPrompt()`. */
export class McpRuntimePromptBuilder implements McpRuntimeBuilder<McpPromptRegistration> {
  readonly messages = Messages;
  private readonly schemas = new DtoSchemaFactory();

  readonly key = (registration: McpPromptRegistration) => registration.name;
  readonly keys = () => KEYS;

  build(site: string, registration: McpPromptRegistration): McpComponent {
    const { name, description, handler } = registration;
    const standard = standardPromptArguments(registration.args, site, 'args');
    const argsType = standard ? undefined : (registration.args as (new (...args: never[]) => object) | undefined);
    if (typeof name !== 'string' || !MCP_TOOL_NAME_PATTERN.test(name))
      throw new McpConfigurationError(McpMessages.invalidPromptName(site, String(name)));
    if (typeof description !== 'string' || description.trim() === '') throw new McpConfigurationError(Messages.missingDescription(site));
    if (typeof handler !== 'function') throw new McpConfigurationError(Messages.missingHandler(site));
    if (argsType !== undefined && typeof argsType !== 'function') throw new McpConfigurationError(Messages.argsNotAClass(site));
    if (registration.args !== undefined && registration.arguments !== undefined)
      throw new McpConfigurationError(Messages.argumentsTwice(site));
    let declared = standard?.declared ?? (argsType ? argumentsFromSchema(this.schemas.forClass(argsType)) : []);
    if (registration.arguments !== undefined) {
      const problem = argumentListProblem(registration.arguments);
      if (problem) throw new McpConfigurationError(Messages.invalidArguments(site, problem));
      declared = registration.arguments.map((argument) => ({ ...argument }));
    }
    return {
      kind: 'prompt',
      definition: promptDefinition({
        name,
        site,
        title: registration.title,
        description,
        arguments: declared,
        validator: standard?.validator ?? (argsType && new McpDtoArgumentValidator(argsType)),
        handler: async (payload, context) => handler(payload as Record<string, string>, context),
        runtime: true,
      }),
    };
  }
}
