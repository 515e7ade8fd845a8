import { bootErrors } from '../../core/errors/boot-errors.js';

/** Boot errors and texts of the OAuth resource server (boot errors: `docs/errors.md`). */
export const McpOAuthMessages = {
  ...bootErrors({
    discoveryFailed: {
      code: 'MCP_ERR_OAUTH_DISCOVERY_FAILED',
      message: (issuer: string, tried: string) =>
        `McpModule option "auth.oauth.issuer": no authorization server metadata could be read for ${issuer} (${tried}); check the issuer URL (it must equal the server's "issuer" exactly) and that the authorization server is reachable from this host.`,
      fix: "Check the issuer URL (it must equal the authorization server's `issuer` exactly) and that the server is reachable from this host; the process may be restarted once it is up.",
      shown: { tried: 'each URL tried and why' },
    },
    metadataUnusable: {
      code: 'MCP_ERR_OAUTH_METADATA_UNUSABLE',
      message: (issuer: string, problem: string) => `McpModule option "auth.oauth": the metadata of ${issuer} ${problem}.`,
      fix: "Set `auth.oauth.issuer` to the metadata's `issuer`; enable JWT access tokens or introspection at the authorization server, or configure `auth.oauth.introspection`.",
      variants: '(another `issuer`, no `jwks_uri` and no introspection, no `introspection_endpoint` for `auth.oauth.introspection`)',
    },
  }),
  /** The client-facing text of a 503: names no host. */
  unavailable: 'the authorization server cannot be reached to check the access token',
};
