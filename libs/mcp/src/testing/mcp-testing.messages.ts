/** Texts of `@nest-mcp/core/testing`, each naming the place and the fix (as `store.messages.ts` does). */
export const McpTestingMessages = {
  notAnApp: (where: string) =>
    `${where}: the first argument must be a Nest application or a compiled TestingModule (Test.createTestingModule({...}).compile()).`,
  noMcpModule: (where: string) =>
    `${where}: this app has no McpModule; import McpModule.forRoot({ name, version }) in the module under test.`,
  badOptions: (where: string) => `${where}: options must be an object ({ principal?, protocolVersion? }).`,
  unknownOption: (where: string, key: string) => `${where}: unknown option "${key}"; the options are principal and protocolVersion.`,
  badPrincipal: (where: string, problem: string) =>
    `${where}: options.principal ${problem}; pass { subject: 'alice', tenant?: 'acme', scopes?: ['weather:read'], claims?: {} }.`,
  badProtocolVersion: (where: string, version: unknown, supported: readonly string[]) =>
    `${where}: options.protocolVersion ${JSON.stringify(version)} is not a revision negotiated by initialize; use one of ${supported.join(', ')} (the 2026-07-28 era is tested over HTTP).`,
  principalRequired: (where: string) =>
    `${where}: this app authenticates its callers (auth.jwt, auth.apiKeys or auth.authenticator), and over HTTP a call without credentials is refused with 401; pass options.principal ({ subject, tenant, scopes }) to call as someone.`,
  closed: (where: string) => `${where}: the connection is closed; create a new one.`,
  unanswered: (method: string) => `${method} got no answer: the test connection was closed while it was in flight.`,
  tooManyPages: (method: string, pages: number) => `${method} still had a nextCursor after ${pages} pages; is the cursor stable?`,
};
