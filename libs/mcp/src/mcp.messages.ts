/** Every boot-time and log message in one place, each naming the place and the fix. */
export const McpMessages = {
  missingDescription: (site: string) =>
    `${site}: @McpTool() needs a "description" (the model reads it to decide when to call the tool).`,
  invalidToolName: (site: string, name: string) =>
    `${site}: tool name "${name}" is invalid; use 1 to 64 letters, digits, "_" or "-" (normalizeToolName() can build one).`,
  duplicateToolName: (name: string, first: string, second: string) =>
    `Tool name "${name}" is declared twice, by ${first} and by ${second}; give one of them another name ({ name: '...' }).`,
  argsNotAClass: (site: string) =>
    `${site}: the @McpArgs() parameter must be typed with a class carrying class-validator decorators (an interface or a primitive cannot be validated).`,
  inputSchemaWithDto: (site: string) => `${site}: declare the arguments either with a DTO parameter or with inputSchema, not both.`,
  invalidInputSchema: (site: string, reason: string) => `${site}: inputSchema is not a valid JSON Schema with "type": "object" (${reason}).`,
  invalidScopes: (site: string) => `${site}: scopes must be an array of scope tokens (no spaces or quotes), e.g. ['weather:read'].`,
  invalidTimeout: (site: string, value: unknown) => `${site}: timeoutMs must be a positive integer, got ${String(value)}.`,
  invalidOption: (option: string, problem: string) => `McpModule option "${option}" ${problem}.`,
  toolFailed: (tool: string, requestId: unknown) => `Tool "${tool}" failed (request ${String(requestId)})`,
  requestScopedTool: (site: string) => `${site} is request-scoped: it is resolved anew for every call.`,
} as const;
