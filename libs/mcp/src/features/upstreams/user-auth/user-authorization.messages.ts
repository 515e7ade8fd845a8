import { bootWarnings } from '../../../core/errors/boot-warnings.js';

/** Texts of per-user upstream authorization: the caller's error, and the pages the user's browser shows. */
export const UserAuthorizationMessages = {
  /** The call's error: the user has not connected their account at the upstream yet (or it was revoked). */
  required: (upstream: string, url: string) =>
    `The upstream "${upstream}" acts with your own account there, not connected yet: open ${url} to connect it, then call again`,
  /** The elicitation's message (URL mode). */
  elicitation: (upstream: string) => `Connect your account at the upstream "${upstream}" to use its tools`,
  /** A call without a signed-in user. */
  noUser: (upstream: string) => `The upstream "${upstream}" acts with each user's own account: sign in first`,
  tokenFailed: (upstream: string, why: string) => `No credential for the upstream "${upstream}" could be obtained: ${why}`,
  linkUsed: (upstream: string) => `This link to connect "${upstream}" was used already or has expired. Call the tool again for a new one.`,
  flowUnknown: (upstream: string) =>
    `This sign-in to "${upstream}" is unknown, used already or expired. Call the tool again for a new link.`,
  noAuthorizationEndpoint: (upstream: string) => `The authorization server of "${upstream}" names no authorization endpoint.`,
  refused: (upstream: string) => `The authorization server of "${upstream}" did not grant access.`,
  failed: (upstream: string, why: string) => `Connecting "${upstream}" failed: ${why}.`,
  /** The callback's refusal: the person who signed in is not the user the link was for (no token is kept). */
  otherUser: (upstream: string) =>
    `The account you signed in with at "${upstream}" is not the one this link was handed out for: nothing was connected. Ask your client for a link of your own.`,
  /** The callback's refusal under a confirmUser: the authorization server answered no ID token to confirm who signed in. */
  noIdToken: (upstream: string) =>
    `The authorization server of "${upstream}" issued no ID token, so this sign-in cannot be confirmed as yours: nothing was connected. ` +
    `For the gateway’s operator: the authorization server must issue ID tokens (OpenID Connect) for the "openid" scope the gateway asks for; ` +
    `without them, only confirmUser 'unverified' (no confirmation) works.`,
  connected: (upstream: string) => `Your account at "${upstream}" is connected. You can close this page and return to your client.`,
  /** The disconnect tool's answers. */
  disconnected: (upstream: string) => `Your account at the upstream "${upstream}" is disconnected`,
  notConnected: (upstream: string) => `No account at the upstream "${upstream}" was connected`,
};

/** Boot warnings of per-user upstream authorization (codes in `docs/errors.md`). */
export const UserAuthorizationWarnings = bootWarnings({
  unverified: {
    code: 'MCP_WARN_UPSTREAM_USER_UNVERIFIED',
    message: (upstream: string) =>
      `the upstream "${upstream}" has auth.authorizationCode.confirmUser 'unverified': whoever completes a user's link connects their own account for that user, so a link sent to someone else makes their account act for the sender. Use 'same-subject' or a function unless only that user can open it.`,
    fix: "`confirmUser: 'same-subject'` or a function of the ID token's claims, unless only that user can ever open the link.",
  },
});
