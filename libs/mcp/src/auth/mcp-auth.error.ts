/** Why authentication failed; each code is an envelope code with HTTP status 401. @publicApi */
export type McpAuthErrorCode = 'UNAUTHORIZED' | 'INVALID_TOKEN' | 'TOKEN_EXPIRED';

/** Thrown by authenticators; its message goes to the client, so it must not describe the secret or the token. @publicApi */
export class McpAuthError extends Error {
  constructor(
    readonly code: McpAuthErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'McpAuthError';
  }
}
