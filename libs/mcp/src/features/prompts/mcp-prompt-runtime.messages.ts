import { bootErrors } from '../../core/errors/boot-errors.js';

/** The runtime prompt registry's errors (`McpPromptRegistry.register/replace/remove`; codes in `docs/errors.md`). */
export const McpPromptRuntimeMessages = {
  ...bootErrors({
    notAnObject: {
      code: 'MCP_ERR_PROMPT_REGISTER_NOT_OBJECT',
      message: (method: string) => `McpPromptRegistry.${method}() needs a prompt definition object ({ name, description, handler, ... }).`,
    },
    listChangedOff: {
      code: 'MCP_ERR_PROMPT_LIST_CHANGED_OFF',
      message: (site: string) =>
        `${site}: the prompts list changes at runtime, so clients must be told: set listChanged: { prompts: true } in McpModule.forRoot().`,
    },
    missingDescription: {
      code: 'MCP_ERR_PROMPT_REGISTER_DESCRIPTION_MISSING',
      message: (site: string) => `${site}: a prompt needs a "description" (clients list prompts by it).`,
    },
    missingHandler: {
      code: 'MCP_ERR_PROMPT_REGISTER_HANDLER_MISSING',
      message: (site: string) => `${site}: "handler" must be a function (args, context) => messages.`,
    },
    unknownKey: {
      code: 'MCP_ERR_PROMPT_REGISTER_KEY_UNKNOWN',
      message: (site: string, key: string, closest: string | undefined) =>
        `${site}: "${key.slice(0, 60)}" is not a prompt definition key${closest ? `; did you mean "${closest}"?` : ''}.`,
    },
    invalidArguments: {
      code: 'MCP_ERR_PROMPT_REGISTER_ARGUMENTS_INVALID',
      message: (site: string, problem: string) => `${site}: "arguments" are invalid: ${problem}.`,
    },
    argsNotAClass: {
      code: 'MCP_ERR_PROMPT_REGISTER_ARGS_NOT_A_CLASS',
      message: (site: string) =>
        `${site}: "args" must be a DTO class carrying class-validator decorators, or a Standard Schema validator (Zod 4, Valibot, ArkType, …).`,
    },
    argumentsTwice: {
      code: 'MCP_ERR_PROMPT_REGISTER_ARGUMENTS_TWICE',
      message: (site: string) => `${site}: declare the arguments either in "arguments" or with an "args" DTO, not both.`,
    },
    nameTaken: {
      code: 'MCP_ERR_PROMPT_NAME_TAKEN',
      message: (site: string, existing: string) =>
        `${site}: the prompt name is taken by ${existing}; choose another name, or call replace() to swap a runtime prompt.`,
    },
    notRegistered: {
      code: 'MCP_ERR_PROMPT_NOT_REGISTERED',
      message: (site: string) => `${site}: no prompt of that name was registered at runtime; use register() to add it.`,
    },
    decorated: {
      code: 'MCP_ERR_PROMPT_DECORATED',
      message: (site: string, existing: string) =>
        `${site}: the prompt is declared by ${existing} with @McpPrompt(); only prompts registered at runtime can be replaced or removed.`,
    },
  }),
  site: (method: string, name: unknown) => `McpPromptRegistry.${method}(${JSON.stringify(String(name)).slice(0, 80)})`,
} as const;
