import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { McpMessages } from '../../core/errors/mcp.messages.js';
import type { McpRuntimeBuilder } from '../components/runtime-registrations.js';
import type { McpComponent } from '../components/mcp-component-provider.interface.js';
import type { McpToolDefinition, McpToolDescriptor } from './mcp-tool-definition.interface.js';
import type { McpToolRegistration } from './mcp-tool-registration.interface.js';
import { McpToolRuntimeMessages as Messages } from './mcp-tool-runtime.messages.js';
import { MCP_TOOL_NAME_PATTERN } from './tool-name.js';
import { DtoSchemaFactory } from './schema/dto-schema.factory.js';
import { RawSchemaCompiler } from './schema/raw-schema.compiler.js';
import { assembleTool, type McpToolAssemblyInput } from './tool-definition.assembly.js';
import { isStandardSchema } from '../../core/standard-schema.js';

const KEYS = [
  'name',
  'description',
  'title',
  'annotations',
  'args',
  'inputSchema',
  'output',
  'outputSchema',
  'timeoutMs',
  'idempotencyKey',
  'scopes',
  'visibleTo',
  'ui',
  'handler',
] as const;

/** A runtime tool, built and checked by the rules of `@McpTool()` (`ui` also by {@link checkUi} once UI resources are known). */
export class McpRuntimeToolBuilder implements McpRuntimeBuilder<McpToolRegistration> {
  readonly messages = Messages;
  private readonly schemas = { dto: new DtoSchemaFactory(), raw: new RawSchemaCompiler() };
  /**
   * Set by McpAppsExplorer once every `@McpUiResource()` is registered: throws when a tool's `ui.resourceUri` is
   * not served. Tools registered before then are checked with the decorated ones at bootstrap.
   */
  checkUi?: (descriptor: McpToolDescriptor, site: string) => void;

  constructor(private readonly defaultTimeoutMs: number) {}

  readonly key = (registration: McpToolRegistration) => registration.name;
  readonly keys = () => KEYS;

  build(site: string, registration: McpToolRegistration): McpComponent {
    const { name, description, handler } = registration;
    if (typeof name !== 'string' || !MCP_TOOL_NAME_PATTERN.test(name))
      throw new McpConfigurationError(McpMessages.invalidToolName(site, String(name)));
    if (typeof description !== 'string' || description.trim() === '') throw new McpConfigurationError(McpMessages.missingDescription(site));
    if (typeof handler !== 'function') throw new McpConfigurationError(Messages.missingHandler(site));
    const timeoutMs = registration.timeoutMs ?? this.defaultTimeoutMs;
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new McpConfigurationError(McpMessages.invalidTimeout(site, timeoutMs));
    const { args, ...options } = registration;
    // A Standard Schema may be a function too (ArkType's types are callable): `~standard` decides first.
    const input = isStandardSchema(args) ? args : undefined;
    const argsType = input ? undefined : args;
    if (argsType !== undefined && typeof argsType !== 'function') throw new McpConfigurationError(Messages.argsNotAClass(site));
    const definition: McpToolDefinition = {
      ...assembleTool(
        {
          site,
          name,
          options: { ...options, input },
          argsType: argsType as McpToolAssemblyInput['argsType'],
          job: false,
          inputOption: 'args',
          uiOption: '"ui"',
          checkDescriptor: (descriptor) => {
            if (descriptor._meta) this.checkUi?.(descriptor, site);
          },
        },
        this.schemas,
      ),
      timeoutMs,
      handler: async (args, context) => handler(args, context),
      runtime: true,
    };
    return { kind: 'tool', definition };
  }
}
