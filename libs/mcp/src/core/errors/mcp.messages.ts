import { CLIENT_URI_MAX_CHARACTERS, clientText } from '../client-text.js';
import { bootErrors } from './boot-errors.js';

/** Two declarations of one key (a tool name, a resource uri …): both places, then the fix. */
const declaredTwice =
  (what: string, fix: string) =>
  (name: string, first: string, second: string): string =>
    `${what} "${name}" is declared twice, by ${first} and by ${second}; ${fix}.`;

/** Boot errors of decorated tools (`@McpTool()`). */
export const TOOL_ERRORS = bootErrors({
  missingDescription: {
    code: 'MCP_ERR_TOOL_DESCRIPTION_MISSING',
    message: (site: string) => `${site}: @McpTool() needs a "description" (the model reads it to decide when to call the tool).`,
    fix: 'Add `description` to the decorator (or the runtime definition).',
  },
  invalidToolName: {
    code: 'MCP_ERR_TOOL_NAME_INVALID',
    message: (site: string, name: string) =>
      `${site}: tool name "${name}" is invalid; use 1 to 64 letters, digits, "_" or "-" (normalizeToolName() can build one).`,
    fix: 'Rename the tool; `normalizeToolName()` builds a valid name from any text.',
  },
  duplicateToolName: {
    code: 'MCP_ERR_TOOL_NAME_DUPLICATE',
    message: declaredTwice('Tool name', "give one of them another name ({ name: '...' })"),
    fix: "Give one of the two methods `{ name: '…' }`.",
  },
  argsNotAClass: {
    code: 'MCP_ERR_TOOL_ARGS_NOT_A_CLASS',
    message: (site: string) =>
      `${site}: the @McpArgs() parameter must be typed with a class carrying class-validator decorators (an interface or a primitive cannot be validated).`,
    fix: 'Type the parameter with a DTO class (TypeScript erases interfaces, so nothing could be validated).',
  },
  inputSchemaWithDto: {
    code: 'MCP_ERR_TOOL_ARGUMENTS_TWICE',
    message: (site: string) => `${site}: declare the arguments either with a DTO parameter or with inputSchema, not both.`,
    fix: 'Keep the DTO or the `inputSchema`.',
  },
  invalidInputSchema: {
    code: 'MCP_ERR_TOOL_INPUT_SCHEMA_INVALID',
    message: (site: string, reason: string) => `${site}: inputSchema is not a valid JSON Schema with "type": "object" (${reason}).`,
    fix: 'Fix the schema so that it compiles and its root has `"type": "object"`.',
  },
  unknownIdempotencyKey: {
    code: 'MCP_ERR_TOOL_IDEMPOTENCY_KEY_UNKNOWN',
    message: (site: string, key: string) => `${site}: idempotencyKey "${key}" is not a property of the tool's arguments.`,
    fix: 'Name a property of the arguments DTO or schema.',
  },
  invalidScopes: {
    code: 'MCP_ERR_TOOL_SCOPES_INVALID',
    message: (site: string) => `${site}: scopes must be an array of scope tokens (no spaces or quotes), e.g. ['weather:read'].`,
    fix: 'List one token per entry.',
  },
  invalidTimeout: {
    code: 'MCP_ERR_TOOL_TIMEOUT_INVALID',
    message: (site: string, value: unknown) => `${site}: timeoutMs must be a positive integer, got ${String(value)}.`,
    fix: 'Give milliseconds as a whole number above 0.',
  },
});

/** `tools.timeoutMs` as the object literal that sets it: `{ tools: { timeoutMs: ... } }`. */
const nested = (path: string): string => path.split('.').reduceRight((inner, key) => `{ ${key}: ${inner} }`, '...');

/** Boot errors of the module options (`McpModule.forRoot()`). */
export const OPTION_ERRORS = bootErrors({
  invalidOption: {
    code: 'MCP_ERR_OPTION_INVALID',
    message: (option: string, problem: string) => `McpModule option "${option}" ${problem}.`,
    fix: 'The message names the option and what it must be (`must be a positive integer, got 0`); fix that value.',
  },
  unknownOption: {
    code: 'MCP_ERR_OPTION_UNKNOWN',
    message: (option: string, closest: string | undefined, known: readonly string[]) =>
      `McpModule option ${JSON.stringify(option.slice(0, 100))} is unknown; ${closest === undefined ? `the options at this level are ${known.join(', ')}.` : `did you mean "${closest}"?`}`,
    fix: 'Fix the spelling; the [options reference](./reference/options.md) lists them.',
    variants: '(or `the options at this level are …`)',
  },
  removedOption: {
    code: 'MCP_ERR_OPTION_REMOVED',
    message: (option: string, replacement: string) => `McpModule option "${option}" is no longer accepted: it ${replacement}.`,
    fix: 'Use the replacement the message names.',
  },
  movedOption: {
    code: 'MCP_ERR_OPTION_MOVED',
    message: (option: string, path: string) => `McpModule option "${option}" moved to "${path}" (0.2.0): write ${nested(path)} instead.`,
    fix: 'Move the value into its group; the [table of moved options](./reference/options.md#options-moved-in-0-2-0) lists all nineteen.',
    shown: { path: '<group>.<key>' },
  },
  toolFilterNotProvider: {
    code: 'MCP_ERR_OPTION_TOOL_FILTER_NOT_PROVIDER',
    message: (filter: string) =>
      `McpModule option "tools.filters": ${filter} is not a provider; add it to the providers of one of your modules.`,
    fix: "Add the filter class to a module's `providers`.",
  },
  toolFilterInvalid: {
    code: 'MCP_ERR_OPTION_TOOL_FILTER_INVALID',
    message: (filter: string) => `McpModule option "tools.filters": ${filter} must implement McpToolFilter (isVisible(tool, principal)).`,
    fix: 'Implement `isVisible(tool, principal)`.',
  },
  toolSearchNameTaken: {
    code: 'MCP_ERR_OPTION_TOOL_SEARCH_NAME_TAKEN',
    message: (name: string, site: string) =>
      `McpModule option "tools.search": the tool name "${name}" is taken by ${site}; rename that tool (renameTool() in "tools.transforms" can).`,
    fix: 'Rename your `search_tools` or `call_tool` tool, or leave `tools.search` off.',
  },
});

/** Boot errors of the dispatcher's method table and of serveMcpOverStdio. */
export const SERVER_ERRORS = bootErrors({
  stdioServerUnknown: {
    code: 'MCP_ERR_STDIO_SERVER_UNKNOWN',
    message: (name: string | undefined, names: readonly string[]) =>
      name === undefined
        ? `serveMcpOverStdio: this app has ${names.length} MCP servers (${names.join(', ')}); name the one to serve: serveMcpOverStdio(app, { server: "${names[0]}" }).`
        : `serveMcpOverStdio: no MCP server named "${clientText(name, 64)}" in this app; its servers are ${names.join(', ')}.`,
    fix: "Pass `serveMcpOverStdio(app, { server: '<name>' })` with a server of the app.",
    shown: { name: undefined, names: ['<a>', '<b>'] },
    variants: '(or `no MCP server named "<name>" in this app; …`)',
  },
  duplicateMethodHandler: {
    code: 'MCP_ERR_METHOD_HANDLER_DUPLICATE',
    message: (method: string, first: string, second: string) =>
      `JSON-RPC method "${method}" is served twice, by ${first} and by ${second}; keep one, or let one answer isServed() with false.`,
    fix: 'Keep one handler per method.',
  },
  requestScopedMethodHandler: {
    code: 'MCP_ERR_METHOD_HANDLER_REQUEST_SCOPED',
    message: (site: string) =>
      `${site} is a method handler (@McpMethodHandlerProvider()) but request-scoped; method handlers live as long as the application: make it a singleton.`,
    fix: 'Remove `Scope.REQUEST` (and request-scoped dependencies).',
  },
});

/** Boot errors of decorated resources and templates. */
export const RESOURCE_ERRORS = bootErrors({
  resourceMissingName: {
    code: 'MCP_ERR_RESOURCE_NAME_MISSING',
    message: (site: string, decorator: string) => `${site}: ${decorator} needs a "name" (clients show it in their resource pickers).`,
    fix: 'Add `name`.',
  },
  invalidResourceUri: {
    code: 'MCP_ERR_RESOURCE_URI_INVALID',
    message: (site: string, uri: unknown) =>
      `${site}: resource uri ${JSON.stringify(uri)} is not an absolute URI; give it a scheme, e.g. 'file:///notes/today.md' or 'app://config'.`,
    fix: 'Give the URI a scheme.',
  },
  resourceUriLooksLikeTemplate: {
    code: 'MCP_ERR_RESOURCE_URI_IS_TEMPLATE',
    message: (site: string, uri: string) =>
      `${site}: resource uri "${uri}" contains "{" or "}"; use @McpResourceTemplate({ uriTemplate: '${uri}', ... }) for a parameterised resource.`,
    fix: 'Declare it with `@McpResourceTemplate()`.',
  },
  invalidResourceSize: {
    code: 'MCP_ERR_RESOURCE_SIZE_INVALID',
    message: (site: string, size: unknown) => `${site}: resource size must be a non-negative integer (bytes), got ${String(size)}.`,
    fix: 'Give the size in bytes, or leave it out.',
  },
  duplicateResourceUri: {
    code: 'MCP_ERR_RESOURCE_URI_DUPLICATE',
    message: declaredTwice('Resource uri', 'give one of them another uri'),
    fix: 'Keep one declaration per URI.',
    shown: { name: 'uri' },
  },
  invalidResourceTemplate: {
    code: 'MCP_ERR_RESOURCE_TEMPLATE_INVALID',
    message: (site: string, template: unknown, problem: string) =>
      `${site}: uriTemplate ${JSON.stringify(template)} is invalid: ${problem}.`,
    fix: 'Write an RFC 6570 level 1–3 template such as `app://items/{id}`.',
  },
  duplicateResourceTemplate: {
    code: 'MCP_ERR_RESOURCE_TEMPLATE_DUPLICATE',
    message: declaredTwice('Resource template', 'merge them or change one template'),
    fix: 'Keep one declaration per template.',
    shown: { name: 'template' },
  },
});

/** Boot errors of decorated prompts. */
export const PROMPT_ERRORS = bootErrors({
  promptMissingDescription: {
    code: 'MCP_ERR_PROMPT_DESCRIPTION_MISSING',
    message: (site: string) => `${site}: @McpPrompt() needs a "description" (clients list prompts by it).`,
    fix: 'Add `description`.',
  },
  invalidPromptName: {
    code: 'MCP_ERR_PROMPT_NAME_INVALID',
    message: (site: string, name: string) => `${site}: prompt name "${name}" is invalid; use 1 to 64 letters, digits, "_" or "-".`,
    fix: 'Rename the prompt.',
  },
  duplicatePromptName: {
    code: 'MCP_ERR_PROMPT_NAME_DUPLICATE',
    message: declaredTwice('Prompt name', "give one of them another name ({ name: '...' })"),
    fix: "Give one of them `{ name: '…' }`.",
  },
  invalidPromptArguments: {
    code: 'MCP_ERR_PROMPT_ARGUMENTS_INVALID',
    message: (site: string, problem: string) => `${site}: @McpPrompt() arguments are invalid: ${problem}.`,
    fix: 'Give each argument a unique `name` (and optional `description`, `required`).',
  },
  promptArgumentsTwice: {
    code: 'MCP_ERR_PROMPT_ARGUMENTS_TWICE',
    message: (site: string) =>
      `${site}: declare the prompt's arguments either in @McpPrompt({ arguments }) or with a DTO parameter, not both.`,
    fix: 'Keep one of the two.',
  },
});

/** Boot errors of `@McpCompletion()`. */
export const COMPLETION_ERRORS = bootErrors({
  invalidCompletionRef: {
    code: 'MCP_ERR_COMPLETION_REF_INVALID',
    message: (site: string) =>
      `${site}: @McpCompletion() needs ref { type: 'ref/prompt', name } or { type: 'ref/resource', uri } and an "argument" name.`,
    fix: 'Give `ref` and `argument`.',
  },
  completionUnknownPrompt: {
    code: 'MCP_ERR_COMPLETION_PROMPT_UNKNOWN',
    message: (site: string, name: string) => `${site}: @McpCompletion() refers to prompt "${name}", which no @McpPrompt() declares.`,
    fix: 'Name a declared prompt.',
  },
  completionUnknownTemplate: {
    code: 'MCP_ERR_COMPLETION_TEMPLATE_UNKNOWN',
    message: (site: string, uri: string) =>
      `${site}: @McpCompletion() refers to resource template "${uri}", which no @McpResourceTemplate() declares (copy its uriTemplate exactly).`,
    fix: "Copy the template's `uriTemplate` exactly.",
  },
  completionUnknownArgument: {
    code: 'MCP_ERR_COMPLETION_ARGUMENT_UNKNOWN',
    message: (site: string, target: string, argument: string, known: readonly string[]) =>
      `${site}: @McpCompletion() completes "${argument}", but ${target} has ${known.length === 0 ? 'no arguments' : `only ${known.map((name) => `"${name}"`).join(', ')}`}.`,
    fix: "Name one of the target's arguments.",
    shown: { known: ['<a>', '<b>'] },
    variants: '(or `no arguments`)',
  },
  duplicateCompletion: {
    code: 'MCP_ERR_COMPLETION_DUPLICATE',
    message: (target: string, argument: string, first: string, second: string) =>
      `Argument "${argument}" of ${target} has two completers, ${first} and ${second}; keep one.`,
    fix: 'Keep one completer per argument.',
  },
});

/**
 * The boot errors of tools, options, resources, prompts, completions and the method table (each with its
 * `MCP_ERR_*` code, see `docs/errors.md`) and the log texts of calls; each names the place and the fix, and client
 * text in them is bounded.
 */
export const McpMessages = {
  ...TOOL_ERRORS,
  ...OPTION_ERRORS,
  ...SERVER_ERRORS,
  ...RESOURCE_ERRORS,
  ...PROMPT_ERRORS,
  ...COMPLETION_ERRORS,
  toolFailed: (tool: string, requestId: unknown) => `Tool "${tool}" failed (request ${clientText(requestId)})`,
  toolOutputInvalid: (site: string, requestId: string) =>
    `${site} returned data its output schema refuses (request ${requestId}); the caller got INTERNAL_ERROR`,
  toolAnsweredError: (tool: string, code: string, requestId: unknown) =>
    `Tool "${tool}" answered ${code} (request ${clientText(requestId)})`,
  stdioCredentialsMissing: (name: string) =>
    `${name} is not set: this server requires authentication; set ${name} to an API key or access token`,
  stdioCredentialsRefused: (name: string, reason: string) => `${name} was refused: ${reason}`,
  requestScopedTool: (site: string) => `${site} is request-scoped: it is resolved anew for every call.`,
  resourceBadResult: (site: string) =>
    `${site} returned a value resources/read cannot send; return a string (text), a Buffer or Uint8Array (binary), or { contents: [{ uri, text } | { uri, blob }] }.`,
  resourceFailed: (uri: string, requestId: unknown) =>
    `Reading resource "${clientText(uri, CLIENT_URI_MAX_CHARACTERS)}" failed (request ${clientText(requestId)})`,
  promptBadResult: (site: string) =>
    `${site} returned a value prompts/get cannot send; return a string, an array of { role: 'user' | 'assistant', content } messages, or { description?, messages }.`,
  promptFailed: (name: string, requestId: unknown) => `Prompt "${name}" failed (request ${clientText(requestId)})`,
  completionBadResult: (site: string) =>
    `${site} returned a value completion/complete cannot send; return an array of strings or { values: string[], total?, hasMore? }.`,
  completionFailed: (target: string, requestId: unknown) => `Completing an argument of ${target} failed (request ${clientText(requestId)})`,
} as const;
