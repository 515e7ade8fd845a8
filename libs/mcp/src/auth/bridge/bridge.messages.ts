import { bootErrors } from '../../core/errors/boot-errors.js';

/** Boot errors of the authorization-server bridge (`docs/errors.md`). */
export const McpOAuthBridgeMessages = bootErrors({
  identityProviderUnreachable: {
    code: 'MCP_ERR_OAUTH_BRIDGE_UPSTREAM_UNREACHABLE',
    message: (issuer: string, tried: string) =>
      `McpModule option "auth.bridge.upstream.issuer": no OpenID discovery document could be read for ${issuer} (${tried}); check the issuer URL (it must equal the provider's "issuer" exactly) and that the provider is reachable from this host.`,
    fix: "Check the upstream issuer URL (it must equal the provider's `issuer` exactly) and that the provider is reachable from this host; the process may be restarted once it is up.",
    shown: { tried: 'each URL tried and why' },
  },
  routesNotMapped: {
    code: 'MCP_ERR_OAUTH_BRIDGE_ROUTES_NOT_MAPPED',
    message: (why: string) =>
      `McpModule option "auth.bridge": the bridge's routes (/.well-known/oauth-authorization-server, /oauth/*) are not mapped: ${why}.`,
    fix: 'With `forRootAsync`, pass `authBridgeRoutes: true` beside `useFactory` (routes are mapped before the factory runs); with several servers, configure the bridge on the one that keeps `wellKnownRoot`.',
  },
  identityProviderUnusable: {
    code: 'MCP_ERR_OAUTH_BRIDGE_UPSTREAM_UNUSABLE',
    message: (issuer: string, problem: string) =>
      `McpModule option "auth.bridge.upstream": the discovery document of ${issuer} ${problem}.`,
    fix: "Set `auth.bridge.upstream.issuer` to the document's `issuer`; the upstream must be an OpenID provider.",
    variants: '(another `issuer`, no `authorization_endpoint` or `token_endpoint`)',
  },
});
