/** Texts of the runtime tool registry's errors (`McpToolRegistry.register/replace/remove`). */
export const McpToolRuntimeMessages = {
  notAnObject: (method: string) => `McpToolRegistry.${method}() needs a tool definition object ({ name, description, handler, ... }).`,
  site: (method: string, name: unknown) => `McpToolRegistry.${method}(${JSON.stringify(String(name)).slice(0, 80)})`,
  listChangedOff: (site: string) =>
    `${site}: the tools list changes at runtime, so clients must be told: set listChanged: { tools: true } in McpModule.forRoot().`,
  missingHandler: (site: string) => `${site}: "handler" must be a function (args, context) => result.`,
  unknownKey: (site: string, key: string, closest: string | undefined) =>
    `${site}: "${key.slice(0, 60)}" is not a tool definition key${closest ? `; did you mean "${closest}"?` : ''}${key === 'job' ? ' (long-running tools must be declared with @McpTool({ job: true }))' : ''}.`,
  argsNotAClass: (site: string) => `${site}: "args" must be a DTO class carrying class-validator decorators.`,
  nameTaken: (site: string, existing: string) =>
    `${site}: the tool name is taken by ${existing}; choose another name, or call replace() to swap a runtime tool.`,
  notRegistered: (site: string) => `${site}: no tool of that name was registered at runtime; use register() to add it.`,
  decorated: (site: string, existing: string) =>
    `${site}: the tool is declared by ${existing} with @McpTool(); only tools registered at runtime can be replaced or removed (hide a decorated tool with visibleTo or a toolFilter).`,
  invalidVisibleTo: (site: string) => `${site}: visibleTo must be a function (principal) => boolean.`,
} as const;
