/** Texts of the credentials this server sends to other services (its boot error: `options/outbound-auth.messages.ts`). */
export const McpOutboundMessages = {
  /** A call needing the caller's token for an exchange came without one. */
  noCallerToken: (target: string) => `${target} is called on behalf of the caller, and this call carries no access token`,
  /** A token for the target could not be obtained (`why` names no token and no body of the authorization server). */
  tokenFailed: (target: string, why: string) => `No credential for ${target} could be obtained: ${why}`,
};
