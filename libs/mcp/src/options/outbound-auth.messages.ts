import { bootErrors } from '../core/errors/boot-errors.js';

/** Boot errors of the credentials this server sends to other services (`docs/errors.md`). */
export const McpOutboundAuthMessages = bootErrors({
  tokenPassthrough: {
    code: 'MCP_ERR_TOKEN_PASSTHROUGH',
    message: (at: string) =>
      `McpModule option "${at}.forwardAuthorization": the caller's tokens come from auth.oauth and their audience is this server, so they must not be passed on to another service (token passthrough). Use ${at}.auth = { tokenExchange: { issuer, clientId, clientSecret, resource } } to call it on the caller's behalf, or { clientCredentials: {...} } to call it as this server.`,
  },
});
