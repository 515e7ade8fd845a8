import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { McpMessages } from '../../core/errors/mcp.messages.js';
import { McpDtoArgumentValidator } from '../../execution/validation/dto-argument.validator.js';
import { NO_ARGUMENTS_VALIDATOR } from '../../execution/validation/fixed-argument.validators.js';
import { toolUiMeta } from '../apps/tool-ui.js';
import type { McpToolDefinition, McpToolDescriptor } from './mcp-tool-definition.interface.js';
import type { McpToolOptions } from './mcp-tool-options.interface.js';
import { envelopeOutputSchema } from './schema/envelope-output-schema.js';
import type { DtoSchemaFactory } from './schema/dto-schema.factory.js';
import type { RawSchemaCompiler } from './schema/raw-schema.compiler.js';
import { checkToolBindings } from './tool-definition.checks.js';
import { McpToolRuntimeMessages } from './mcp-tool-runtime.messages.js';
import { isStandardSchema } from '../../core/standard-schema.js';
import type { JsonSchema } from '../../core/json-schema.types.js';
import { McpStandardSchemaMessages as StandardMessages } from './schema/standard-schema.messages.js';
import { standardArguments, standardOutput } from './schema/standard-tool.schemas.js';

/** What `@McpTool()` options and a `McpToolRegistry.register()` registration both say about a tool. */
export type McpSharedToolOptions = Omit<McpToolOptions, 'name' | 'timeoutMs' | 'job'>;

/** A tool to assemble, once its source has checked the name, description, timeout and the DTO. */
export interface McpToolAssemblyInput {
  site: string;
  name: string;
  options: McpSharedToolOptions;
  /** The arguments' DTO, if any (a hand-written `inputSchema` with one is a boot error). */
  argsType?: new (...args: never[]) => object;
  /** A job tool: its output schema admits `pending` and it announces task support. */
  job: boolean;
  /** How a Standard Schema error names the arguments' option (`args` for the registry; `input` by default). */
  inputOption?: string;
  /** How a `ui` shape error names the option (`"ui"` for the registry; the decorator's default otherwise). */
  uiOption?: string;
  /** Runs on the descriptor before the argument bindings are checked (the registry's `ui.resourceUri` check). */
  checkDescriptor?: (descriptor: McpToolDescriptor) => void;
}

/** The parts of a tool definition that do not depend on where the tool came from. */
export type McpAssembledTool = Pick<
  McpToolDefinition,
  'name' | 'site' | 'descriptor' | 'validator' | 'parseOutput' | 'idempotencyKey' | 'scopes' | 'visibleTo'
>;

/**
 * The descriptor `tools/list` sends, the compiled input schema and the bindings checks, the same for a decorated
 * tool and one registered at runtime, so both fail with the same `McpConfigurationError` for the same mistake.
 */
export function assembleTool(input: McpToolAssemblyInput, schemas: { dto: DtoSchemaFactory; raw: RawSchemaCompiler }): McpAssembledTool {
  const { site, name, options, argsType } = input;
  if (options.input !== undefined && argsType !== undefined) throw new McpConfigurationError(StandardMessages.withDto(site));
  const standard =
    options.input === undefined
      ? undefined
      : standardArguments(
          options.input,
          { site, option: input.inputOption ?? 'input', override: 'inputSchema' },
          options.inputSchema,
          true,
        );
  const raw =
    options.inputSchema === undefined || standard
      ? undefined
      : compileRawSchema(options.inputSchema, argsType !== undefined, site, schemas.raw);
  if (argsType !== undefined) schemas.dto.warnIfWithoutRules(argsType, { site, name });
  const output = outputOf(site, options, schemas.dto);
  const descriptor: McpToolDescriptor = {
    name,
    ...(options.title !== undefined && { title: options.title }),
    description: options.description,
    inputSchema: standard?.jsonSchema ?? raw?.schema ?? schemas.dto.forClass(argsType),
    ...(output && { outputSchema: envelopeOutputSchema(output.dataSchema, { pending: input.job }) }),
    ...(options.annotations && { annotations: { ...options.annotations } }),
    ...(input.job && { execution: { taskSupport: 'optional' as const } }),
    ...(options.ui !== undefined && { _meta: toolUiMeta(site, options.ui, input.uiOption) }),
  };
  input.checkDescriptor?.(descriptor);
  const { idempotencyKey } = options;
  const scopes = checkToolBindings(site, descriptor.inputSchema, idempotencyKey, options.scopes);
  const { visibleTo } = options;
  if (visibleTo !== undefined && typeof visibleTo !== 'function')
    throw new McpConfigurationError(McpToolRuntimeMessages.invalidVisibleTo(site));
  return {
    name,
    site,
    descriptor,
    validator:
      standard?.validator ??
      raw?.validator ??
      (argsType ? new McpDtoArgumentValidator(argsType, descriptor.inputSchema, site) : NO_ARGUMENTS_VALIDATOR),
    ...(output?.parse && { parseOutput: output.parse }),
    idempotencyKey,
    scopes,
    ...(visibleTo !== undefined && { visibleTo }),
  };
}

/** The schema of a success envelope's `data`, from an output DTO or a Standard Schema (then checked on every call too). */
function outputOf(
  site: string,
  options: McpSharedToolOptions,
  dto: DtoSchemaFactory,
): { dataSchema: JsonSchema; parse?: McpAssembledTool['parseOutput'] } | undefined {
  const { output, outputSchema } = options;
  if (isStandardSchema(output)) return standardOutput(output, { site, option: 'output', override: 'outputSchema' }, outputSchema);
  if (outputSchema !== undefined) throw new McpConfigurationError(StandardMessages.outputSchemaAlone(site));
  if (output === undefined) return undefined;
  if (typeof output !== 'function') throw new McpConfigurationError(StandardMessages.outputInvalid(site));
  return { dataSchema: dto.forClass(output) };
}

/** A hand-written schema is kept verbatim (a deep copy) and compiled now, so a bad one fails the boot. */
function compileRawSchema(inputSchema: Record<string, unknown>, withDto: boolean, site: string, compiler: RawSchemaCompiler) {
  if (withDto) throw new McpConfigurationError(McpMessages.inputSchemaWithDto(site));
  if (typeof inputSchema !== 'object' || inputSchema === null || inputSchema.type !== 'object') {
    throw new McpConfigurationError(McpMessages.invalidInputSchema(site, 'the root must have "type": "object"'));
  }
  const schema = structuredClone(inputSchema);
  try {
    return { schema, validator: compiler.compile(schema) };
  } catch (error) {
    throw new McpConfigurationError(McpMessages.invalidInputSchema(site, error instanceof Error ? error.message : String(error)));
  }
}
