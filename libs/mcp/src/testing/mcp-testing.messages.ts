import { bootErrors } from '../core/errors/boot-errors.js';

/** Texts of `@nest-mcp/core/testing`, each naming the place and the fix (its configuration errors: `docs/errors.md`). */
export const McpTestingMessages = {
  ...bootErrors({
    notAnApp: {
      code: 'MCP_ERR_TESTING_NOT_AN_APP',
      message: (where: string) =>
        `${where}: the first argument must be a Nest application or a compiled TestingModule (Test.createTestingModule({...}).compile()).`,
      fix: 'Pass the app or the compiled module.',
    },
    noMcpModule: {
      code: 'MCP_ERR_TESTING_NO_MCP_MODULE',
      message: (where: string) =>
        `${where}: this app has no McpModule; import McpModule.forRoot({ name, version }) in the module under test.`,
      fix: 'Import `McpModule` in the module under test.',
    },
    badOptions: {
      code: 'MCP_ERR_TESTING_OPTIONS_INVALID',
      message: (where: string) => `${where}: options must be an object ({ principal?, headers?, protocolVersion? }).`,
      fix: 'Pass an options object.',
    },
    unknownOption: {
      code: 'MCP_ERR_TESTING_OPTION_UNKNOWN',
      message: (where: string, key: string) => `${where}: unknown option "${key}"; the options are principal, headers and protocolVersion.`,
      fix: 'Use `principal`, `headers` or `protocolVersion`.',
    },
    badPrincipal: {
      code: 'MCP_ERR_TESTING_PRINCIPAL_INVALID',
      message: (where: string, problem: string) =>
        `${where}: options.principal ${problem}; pass { subject: 'alice', tenant?: 'acme', scopes?: ['weather:read'], claims?: {} }.`,
      fix: 'Give the principal a `subject` (and optional tenant, scopes, claims).',
    },
    badHeaders: {
      code: 'MCP_ERR_TESTING_HEADERS_INVALID',
      message: (where: string) => `${where}: headers must be an object of header names and string values, e.g. { 'x-api-key': 'k1' }.`,
      fix: 'Pass header names with string values.',
    },
    badProtocolVersion: {
      code: 'MCP_ERR_TESTING_PROTOCOL_VERSION_INVALID',
      message: (where: string, version: unknown, supported: readonly string[]) =>
        `${where}: options.protocolVersion ${JSON.stringify(version)} is not a revision negotiated by initialize; use one of ${supported.join(', ')} (the 2026-07-28 era is tested over HTTP).`,
      fix: 'Use a listed revision.',
      shown: { supported: ['<versions>'] },
    },
    principalRequired: {
      code: 'MCP_ERR_TESTING_PRINCIPAL_REQUIRED',
      message: (where: string) =>
        `${where}: this app authenticates its callers (auth.jwt, auth.oauth, auth.bridge, auth.apiKeys or auth.authenticator), and over HTTP a call without credentials is refused with 401; pass options.principal ({ subject, tenant, scopes }) to call as someone.`,
      fix: 'Pass `options.principal`.',
    },
  }),
  closed: (where: string) => `${where}: the connection is closed; create a new one.`,
  unanswered: (method: string) => `${method} got no answer: the test connection was closed while it was in flight.`,
  tooManyPages: (method: string, pages: number) => `${method} still had a nextCursor after ${pages} pages; is the cursor stable?`,
};
