import { CLIENT_URI_MAX_CHARACTERS, clientText } from '../client-text.js';

/** Every boot-time and log message in one place, each naming the place and the fix; client text in them is bounded. */
export const McpMessages = {
  missingDescription: (site: string) => `${site}: @McpTool() needs a "description" (the model reads it to decide when to call the tool).`,
  invalidToolName: (site: string, name: string) =>
    `${site}: tool name "${name}" is invalid; use 1 to 64 letters, digits, "_" or "-" (normalizeToolName() can build one).`,
  duplicateToolName: (name: string, first: string, second: string) =>
    `Tool name "${name}" is declared twice, by ${first} and by ${second}; give one of them another name ({ name: '...' }).`,
  argsNotAClass: (site: string) =>
    `${site}: the @McpArgs() parameter must be typed with a class carrying class-validator decorators (an interface or a primitive cannot be validated).`,
  inputSchemaWithDto: (site: string) => `${site}: declare the arguments either with a DTO parameter or with inputSchema, not both.`,
  invalidInputSchema: (site: string, reason: string) =>
    `${site}: inputSchema is not a valid JSON Schema with "type": "object" (${reason}).`,
  unknownIdempotencyKey: (site: string, key: string) => `${site}: idempotencyKey "${key}" is not a property of the tool's arguments.`,
  invalidScopes: (site: string) => `${site}: scopes must be an array of scope tokens (no spaces or quotes), e.g. ['weather:read'].`,
  invalidTimeout: (site: string, value: unknown) => `${site}: timeoutMs must be a positive integer, got ${String(value)}.`,
  invalidOption: (option: string, problem: string) => `McpModule option "${option}" ${problem}.`,
  stdioServerUnknown: (name: string | undefined, names: readonly string[]) =>
    name === undefined
      ? `serveMcpOverStdio: this app has ${names.length} MCP servers (${names.join(', ')}); name the one to serve: serveMcpOverStdio(app, { server: "${names[0]}" }).`
      : `serveMcpOverStdio: no MCP server named "${clientText(name, 64)}" in this app; its servers are ${names.join(', ')}.`,
  unknownOption: (option: string, closest: string | undefined, known: readonly string[]) =>
    `McpModule option ${JSON.stringify(option.slice(0, 100))} is unknown; ${closest === undefined ? `the options at this level are ${known.join(', ')}.` : `did you mean "${closest}"?`}`,
  removedOption: (option: string, replacement: string) => `McpModule option "${option}" is no longer accepted: it ${replacement}.`,
  toolFailed: (tool: string, requestId: unknown) => `Tool "${tool}" failed (request ${clientText(requestId)})`,
  toolAnsweredError: (tool: string, code: string, requestId: unknown) =>
    `Tool "${tool}" answered ${code} (request ${clientText(requestId)})`,
  stdioCredentialsMissing: (name: string) =>
    `${name} is not set: this server requires authentication; set ${name} to an API key or access token`,
  stdioCredentialsRefused: (name: string, reason: string) => `${name} was refused: ${reason}`,
  requestScopedTool: (site: string) => `${site} is request-scoped: it is resolved anew for every call.`,
  // Method handlers (the dispatcher's table).
  duplicateMethodHandler: (method: string, first: string, second: string) =>
    `JSON-RPC method "${method}" is served twice, by ${first} and by ${second}; keep one, or let one answer isServed() with false.`,
  requestScopedMethodHandler: (site: string) =>
    `${site} is a method handler (@McpMethodHandlerProvider()) but request-scoped; method handlers live as long as the application: make it a singleton.`,
  // Resources, prompts and completions.
  resourceMissingName: (site: string, decorator: string) =>
    `${site}: ${decorator} needs a "name" (clients show it in their resource pickers).`,
  invalidResourceUri: (site: string, uri: unknown) =>
    `${site}: resource uri ${JSON.stringify(uri)} is not an absolute URI; give it a scheme, e.g. 'file:///notes/today.md' or 'app://config'.`,
  resourceUriLooksLikeTemplate: (site: string, uri: string) =>
    `${site}: resource uri "${uri}" contains "{" or "}"; use @McpResourceTemplate({ uriTemplate: '${uri}', ... }) for a parameterised resource.`,
  invalidResourceSize: (site: string, size: unknown) =>
    `${site}: resource size must be a non-negative integer (bytes), got ${String(size)}.`,
  duplicateResourceUri: (uri: string, first: string, second: string) =>
    `Resource uri "${uri}" is declared twice, by ${first} and by ${second}; give one of them another uri.`,
  invalidResourceTemplate: (site: string, template: unknown, problem: string) =>
    `${site}: uriTemplate ${JSON.stringify(template)} is invalid: ${problem}.`,
  duplicateResourceTemplate: (template: string, first: string, second: string) =>
    `Resource template "${template}" is declared twice, by ${first} and by ${second}; merge them or change one template.`,
  resourceBadResult: (site: string) =>
    `${site} returned a value resources/read cannot send; return a string (text), a Buffer or Uint8Array (binary), or { contents: [{ uri, text } | { uri, blob }] }.`,
  resourceFailed: (uri: string, requestId: unknown) =>
    `Reading resource "${clientText(uri, CLIENT_URI_MAX_CHARACTERS)}" failed (request ${clientText(requestId)})`,
  promptMissingDescription: (site: string) => `${site}: @McpPrompt() needs a "description" (clients list prompts by it).`,
  invalidPromptName: (site: string, name: string) => `${site}: prompt name "${name}" is invalid; use 1 to 64 letters, digits, "_" or "-".`,
  duplicatePromptName: (name: string, first: string, second: string) =>
    `Prompt name "${name}" is declared twice, by ${first} and by ${second}; give one of them another name ({ name: '...' }).`,
  invalidPromptArguments: (site: string, problem: string) => `${site}: @McpPrompt() arguments are invalid: ${problem}.`,
  promptArgumentsTwice: (site: string) =>
    `${site}: declare the prompt's arguments either in @McpPrompt({ arguments }) or with a DTO parameter, not both.`,
  promptBadResult: (site: string) =>
    `${site} returned a value prompts/get cannot send; return a string, an array of { role: 'user' | 'assistant', content } messages, or { description?, messages }.`,
  promptFailed: (name: string, requestId: unknown) => `Prompt "${name}" failed (request ${clientText(requestId)})`,
  invalidCompletionRef: (site: string) =>
    `${site}: @McpCompletion() needs ref { type: 'ref/prompt', name } or { type: 'ref/resource', uri } and an "argument" name.`,
  completionUnknownPrompt: (site: string, name: string) =>
    `${site}: @McpCompletion() refers to prompt "${name}", which no @McpPrompt() declares.`,
  completionUnknownTemplate: (site: string, uri: string) =>
    `${site}: @McpCompletion() refers to resource template "${uri}", which no @McpResourceTemplate() declares (copy its uriTemplate exactly).`,
  completionUnknownArgument: (site: string, target: string, argument: string, known: readonly string[]) =>
    `${site}: @McpCompletion() completes "${argument}", but ${target} has ${known.length === 0 ? 'no arguments' : `only ${known.map((name) => `"${name}"`).join(', ')}`}.`,
  duplicateCompletion: (target: string, argument: string, first: string, second: string) =>
    `Argument "${argument}" of ${target} has two completers, ${first} and ${second}; keep one.`,
  completionBadResult: (site: string) =>
    `${site} returned a value completion/complete cannot send; return an array of strings or { values: string[], total?, hasMore? }.`,
  completionFailed: (target: string, requestId: unknown) => `Completing an argument of ${target} failed (request ${clientText(requestId)})`,
} as const;
