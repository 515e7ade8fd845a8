/** The browser routes of per-user upstream authorization (`auth.authorizationCode`): the port between features and transports. */
export const MCP_UPSTREAM_USER_AUTH = Symbol('MCP_UPSTREAM_USER_AUTH');

/** The route prefix of the flow, below a server's `publicUrl`. */
export const USER_AUTH_ROUTE = 'mcp-upstream-auth';

/** What a route of the flow answers: a redirect, or a short text page for the user's browser. */
export type McpUserAuthReply = { redirect: string } | { status: number; page: string };

/** The flow's steps for the upstream `name`; undefined when no upstream of that name uses per-user authorization. */
export interface McpUpstreamUserAuthRoutes {
  /** `GET <prefix>/<name>/start?ticket=`: the link a call answered. */
  start(name: string, ticket: string | null): Promise<McpUserAuthReply> | undefined;
  /** `GET <prefix>/<name>/callback`: the redirect URI (the whole URL: its `code`, `state` and `iss`). */
  callback(name: string, url: URL): Promise<McpUserAuthReply> | undefined;
}
