/** Texts of the runtime prompt registry's errors (`McpPromptRegistry.register/replace/remove`). */
export const McpPromptRuntimeMessages = {
  notAnObject: (method: string) => `McpPromptRegistry.${method}() needs a prompt definition object ({ name, description, handler, ... }).`,
  site: (method: string, name: unknown) => `McpPromptRegistry.${method}(${JSON.stringify(String(name)).slice(0, 80)})`,
  listChangedOff: (site: string) =>
    `${site}: the prompts list changes at runtime, so clients must be told: set listChanged: { prompts: true } in McpModule.forRoot().`,
  missingDescription: (site: string) => `${site}: a prompt needs a "description" (clients list prompts by it).`,
  missingHandler: (site: string) => `${site}: "handler" must be a function (args, context) => messages.`,
  unknownKey: (site: string, key: string, closest: string | undefined) =>
    `${site}: "${key.slice(0, 60)}" is not a prompt definition key${closest ? `; did you mean "${closest}"?` : ''}.`,
  invalidArguments: (site: string, problem: string) => `${site}: "arguments" are invalid: ${problem}.`,
  argsNotAClass: (site: string) => `${site}: "args" must be a DTO class carrying class-validator decorators.`,
  argumentsTwice: (site: string) => `${site}: declare the arguments either in "arguments" or with an "args" DTO, not both.`,
  nameTaken: (site: string, existing: string) =>
    `${site}: the prompt name is taken by ${existing}; choose another name, or call replace() to swap a runtime prompt.`,
  notRegistered: (site: string) => `${site}: no prompt of that name was registered at runtime; use register() to add it.`,
  decorated: (site: string, existing: string) =>
    `${site}: the prompt is declared by ${existing} with @McpPrompt(); only prompts registered at runtime can be replaced or removed.`,
} as const;
