import { bootErrors } from '../../../core/errors/boot-errors.js';

/** Boot errors of Standard Schema validators in tools and prompts (codes in `docs/errors.md`). */
export const McpStandardSchemaMessages = bootErrors({
  notAValidator: {
    code: 'MCP_ERR_SCHEMA_NOT_STANDARD',
    message: (site: string, option: string) =>
      `${site}: "${option}" must be a Standard Schema validator (an object with "~standard", as Zod 4, Valibot and ArkType schemas are).`,
    fix: 'Pass the schema itself (`z.object({…})`), not its JSON Schema or a parsed value.',
  },
  outputInvalid: {
    code: 'MCP_ERR_TOOL_OUTPUT_INVALID',
    message: (site: string) => `${site}: "output" must be a DTO class or a Standard Schema validator (Zod 4, Valibot, ArkType, …).`,
    fix: 'Pass a class or a schema.',
  },
  jsonSchemaUnavailable: {
    code: 'MCP_ERR_SCHEMA_JSON_UNAVAILABLE',
    message: (site: string, option: string, reason: string, override: string) =>
      `${site}: no JSON Schema for "${option}": ${reason}. Install the vendor's converter, or give "${override}" (the JSON Schema clients should see).`,
    fix: 'Install the converter (`@valibot/to-json-schema` for Valibot), or give `inputSchema` / `outputSchema` by hand. A runtime registration of a Valibot schema needs the converter loaded at boot (a decorated Valibot tool or prompt), or `inputSchema`.',
  },
  notAnObject: {
    code: 'MCP_ERR_SCHEMA_NOT_OBJECT',
    message: (site: string, option: string, found: string) =>
      `${site}: "${option}" must describe an object (MCP arguments are named): its JSON Schema has ${found}; wrap the fields in an object schema.`,
    fix: 'Use an object schema (`z.object`, `v.object`, `type({…})`) for arguments.',
  },
  withDto: {
    code: 'MCP_ERR_TOOL_INPUT_WITH_DTO',
    message: (site: string) => `${site}: declare the arguments either with a DTO parameter or with "input" (a Standard Schema), not both.`,
    fix: 'Type the arguments parameter with an interface (`z.infer<typeof schema>`), or drop `input`.',
  },
  outputSchemaAlone: {
    code: 'MCP_ERR_TOOL_OUTPUT_SCHEMA_ALONE',
    message: (site: string) =>
      `${site}: "outputSchema" stands in for the converted schema of a Standard Schema "output"; give that "output" too (an output DTO makes its own schema).`,
    fix: 'Add the Standard Schema `output`, or drop `outputSchema`.',
  },
});
