import { bootErrors } from '../../core/errors/boot-errors.js';

/** Boot errors of OpenAPI documents served as tools: each names the source (codes in `docs/errors.md`). */
export const McpOpenApiMessages = bootErrors({
  parserMissing: {
    code: 'MCP_ERR_OPENAPI_PARSER_MISSING',
    message: (): string =>
      'The option sources.openapi needs the package @scalar/openapi-parser (an optional peer dependency): npm install @scalar/openapi-parser.',
    fix: 'Install `@scalar/openapi-parser`.',
  },
  unreachable: {
    code: 'MCP_ERR_OPENAPI_UNREACHABLE',
    message: (source: string, reason: string): string =>
      `The OpenAPI document ${source} could not be read: ${reason}. Check the URL or path, and that the API is up before this app boots.`,
    fix: 'Fix the URL or path; start the API first.',
  },
  redirect: {
    code: 'MCP_ERR_OPENAPI_REDIRECT',
    message: (source: string, reason: string): string =>
      `The OpenAPI document ${source} was not read: ${reason}. Give the URL the document is served at, on its API's own origin.`,
    fix: "Give the URL the document is served at, on its API's own origin; fix the loop.",
    variants:
      '(`<reason>`: `it redirects (HTTP <status>) to another origin (<origin>), which is not followed: …`, `back to <url>: a redirect loop` or `more than 5 redirects: a redirect loop`)',
  },
  invalid: {
    code: 'MCP_ERR_OPENAPI_INVALID',
    message: (source: string, reason: string): string =>
      `The OpenAPI document ${source} is not a valid OpenAPI 3.0 or 3.1 document: ${reason}.`,
    fix: 'Fix the document.',
    variants: "(the validator's first complaints, or a `$ref` that points nowhere or outside the document)",
  },
  noBaseUrl: {
    code: 'MCP_ERR_OPENAPI_BASE_URL',
    message: (source: string): string =>
      `The OpenAPI document ${source} has no absolute servers URL to send requests to: set baseUrl (https://api.example.com) on its entry of the option sources.openapi.`,
    fix: 'Set `baseUrl`.',
  },
  serversOrigin: {
    code: 'MCP_ERR_OPENAPI_SERVERS_ORIGIN',
    message: (source: string, servers: string, origin: string): string =>
      `The OpenAPI document ${source} sends its calls to ${servers} (its servers URL), another origin than ${origin}, where it was ` +
      `fetched: the API it describes would pick where forwarded tokens and configured headers go. Set baseUrl on its entry of the ` +
      `option sources.openapi to the URL the calls are meant for (${servers} if you trust it).`,
    fix: 'Set `baseUrl` to the URL the calls are meant for (the servers URL if you trust it).',
    shown: { servers: 'servers URL' },
  },
  argumentClash: {
    code: 'MCP_ERR_OPENAPI_ARGUMENT_CLASH',
    message: (site: string, name: string, first: string, second: string): string =>
      `${site}: the tool argument "${name}" would be both the ${first} and the ${second}; its arguments are the path, query ` +
      `and header parameters and the body properties in one object. Exclude the operation (exclude: { operations: [...] }) or rename one in the document.`,
    fix: 'Exclude the operation, or rename one of them in the document.',
    shown: { first: 'path parameter / query parameter / header parameter / body property', second: '…' },
  },
  schemaTooLarge: {
    code: 'MCP_ERR_OPENAPI_SCHEMA_TOO_LARGE',
    message: (site: string, reason: string): string =>
      `${site}: ${reason}, too large for a tool. Exclude the operation (exclude: { operations: [...] }) or simplify its schemas in the document.`,
    fix: 'Exclude the operation, or simplify its schemas in the document.',
    variants:
      '(`<reason>`: `its input schema holds more than 10000 nodes, even with each shared schema kept once under $defs`, or its output schema)',
  },
  unknownSelection: {
    code: 'MCP_ERR_OPENAPI_SELECTION_UNKNOWN',
    message: (source: string, option: string, entry: string): string =>
      `The option sources.openapi (${source}) ${option} names "${entry}", which no operation of the document has. Name an operationId, a tool name or a tag of the document.`,
    fix: 'Name an `operationId`, a tool name or a tag the document has.',
    shown: { option: '<include / exclude>.<tags / operations>' },
  },
});

/** Warnings of the same (a legal but surprising outcome: an operation the document has that is not a tool). */
export const McpOpenApiNotices = {
  skipped: (site: string, reason: string): string =>
    `${site} is not served as a tool: ${reason}. Exclude it (exclude: { operations: [...] }) to silence this warning.`,
};
