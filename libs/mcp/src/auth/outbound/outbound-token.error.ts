/** Why a token request failed, in words fit for a caller: the authorization server's own body is not passed on. */
export class OutboundTokenError extends Error {
  constructor(
    readonly kind: 'refused' | 'unreachable',
    message: string,
  ) {
    super(message);
  }
}
