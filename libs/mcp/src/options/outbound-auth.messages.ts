import { bootErrors } from '../core/errors/boot-errors.js';

/** Boot errors of the credentials this server sends to other services (`docs/errors.md`). */
export const McpOutboundAuthMessages = bootErrors({
  tokenPassthrough: {
    code: 'MCP_ERR_TOKEN_PASSTHROUGH',
    message: (at: string) =>
      `McpModule option "${at}.forwardAuthorization": the caller's tokens come from auth.oauth and their audience is this server, so they must not be passed on to another service (token passthrough). Use ${at}.auth = { tokenExchange: { issuer, clientId, clientSecret, resource } } to call it on the caller's behalf, or { clientCredentials: {...} } to call it as this server.`,
    fix: "Call the service on the caller's behalf with `auth: { tokenExchange: { issuer, clientId, clientSecret, resource } }` (RFC 8693), or as this server with `auth: { clientCredentials: {...} }`; forwarding is only for one trust domain (`auth.jwt`, API keys). See [Security](./guide/security.md#what-identity-each-boundary-carries).",
    shown: { at: 'sources.upstreams[<i>]' },
    variants: '(or `sources.openapi[<i>]`)',
  },
  userAuthorizationKey: {
    code: 'MCP_ERR_UPSTREAM_USER_AUTH_KEY',
    message: (at: string, problem: 'is required' | 'is too short') =>
      `McpModule option "${at}" ${problem}: each user's upstream tokens are sealed (AES-256-GCM) with it before they reach the store. Give a random secret of at least 32 characters from your secret store (e.g. openssl rand -base64 32).`,
    fix: 'Give a random secret of at least 32 characters from your secret store (`openssl rand -base64 32`); keep it stable across restarts and instances, or every user connects again.',
    shown: { at: 'sources.upstreams[<i>].auth.authorizationCode.encryptionKey', problem: 'is required / is too short' },
  },
  userAuthorizationConfirm: {
    code: 'MCP_ERR_UPSTREAM_USER_AUTH_CONFIRM',
    message: (at: string) =>
      `McpModule option "${at}" is required: without it a user can send the link they were given to someone else, whose upstream account would then act for them. Choose 'same-subject' (the ID token's sub must be the user's subject: one identity provider for this server and the upstream), a function (user, claims) => boolean (a mapping between two identity providers), or 'unverified' (nobody checked).`,
    fix: "Choose `'same-subject'` (the ID token's `sub` must be the user's subject: one identity provider for this server and the upstream), a function `(user, claims) => boolean` (a mapping between two identity providers), or `'unverified'` (nobody checked, a boot warning). See [Security](./guide/security.md).",
    shown: { at: 'sources.upstreams[<i>].auth.authorizationCode.confirmUser' },
  },
  userAuthorizationWithoutUsers: {
    code: 'MCP_ERR_UPSTREAM_USER_AUTH_NO_USERS',
    message: (at: string) =>
      `McpModule option "${at}.auth.authorizationCode": per-user authorization connects each signed-in user's own account, and this server signs nobody in. Configure auth (oauth, jwt, bridge, apiKeys or an authenticator) so each call has a user, or call the upstream as this server with { clientCredentials: {...} }.`,
    fix: 'Configure `auth` (`oauth`, `jwt`, `bridge`, `apiKeys` or an `authenticator`) so each call has a user, or call the upstream as this server with `auth: { clientCredentials: {...} }`. See [Client and gateway](./guide/client-and-gateway.md).',
    shown: { at: 'sources.upstreams[<i>]' },
  },
  userAuthorizationRoutes: {
    code: 'MCP_ERR_UPSTREAM_USER_AUTH_ROUTES',
    message: (at: string) =>
      `McpModule option "${at}.auth.authorizationCode": its sign-in routes (/mcp-upstream-auth/<upstream>/start and /callback) are not mapped, because forRootAsync's factory runs after routes are mapped. Pass upstreamAuthRoutes: true beside useFactory.`,
    fix: 'With `forRootAsync`, pass `upstreamAuthRoutes: true` beside `useFactory` (`forRoot` maps them whenever an upstream uses `authorizationCode`).',
    shown: { at: 'sources.upstreams[<i>]' },
  },
});
