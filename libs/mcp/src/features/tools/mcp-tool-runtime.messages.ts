import { bootErrors } from '../../core/errors/boot-errors.js';

/** The runtime tool registry's errors (`McpToolRegistry.register/replace/remove`; codes in `docs/errors.md`). */
export const McpToolRuntimeMessages = {
  ...bootErrors({
    notAnObject: {
      code: 'MCP_ERR_TOOL_REGISTER_NOT_OBJECT',
      message: (method: string) => `McpToolRegistry.${method}() needs a tool definition object ({ name, description, handler, ... }).`,
    },
    listChangedOff: {
      code: 'MCP_ERR_TOOL_LIST_CHANGED_OFF',
      message: (site: string) =>
        `${site}: the tools list changes at runtime, so clients must be told: set listChanged: { tools: true } in McpModule.forRoot().`,
    },
    missingHandler: {
      code: 'MCP_ERR_TOOL_REGISTER_HANDLER_MISSING',
      message: (site: string) => `${site}: "handler" must be a function (args, context) => result.`,
    },
    unknownKey: {
      code: 'MCP_ERR_TOOL_REGISTER_KEY_UNKNOWN',
      message: (site: string, key: string, closest: string | undefined) =>
        `${site}: "${key.slice(0, 60)}" is not a tool definition key${closest ? `; did you mean "${closest}"?` : ''}${key === 'job' ? ' (long-running tools must be declared with @McpTool({ job: true }))' : ''}.`,
    },
    argsNotAClass: {
      code: 'MCP_ERR_TOOL_REGISTER_ARGS_NOT_A_CLASS',
      message: (site: string) =>
        `${site}: "args" must be a DTO class carrying class-validator decorators, or a Standard Schema validator (Zod 4, Valibot, ArkType, …).`,
    },
    nameTaken: {
      code: 'MCP_ERR_TOOL_NAME_TAKEN',
      message: (site: string, existing: string) =>
        `${site}: the tool name is taken by ${existing}; choose another name, or call replace() to swap a runtime tool.`,
    },
    notRegistered: {
      code: 'MCP_ERR_TOOL_NOT_REGISTERED',
      message: (site: string) => `${site}: no tool of that name was registered at runtime; use register() to add it.`,
    },
    decorated: {
      code: 'MCP_ERR_TOOL_DECORATED',
      message: (site: string, existing: string) =>
        `${site}: the tool is declared by ${existing} with @McpTool(); only tools registered at runtime can be replaced or removed (hide a decorated tool with visibleTo or a toolFilter).`,
    },
    invalidVisibleTo: {
      code: 'MCP_ERR_TOOL_VISIBLE_TO_INVALID',
      message: (site: string) => `${site}: visibleTo must be a function (principal) => boolean.`,
    },
  }),
  site: (method: string, name: unknown) => `McpToolRegistry.${method}(${JSON.stringify(String(name)).slice(0, 80)})`,
} as const;
