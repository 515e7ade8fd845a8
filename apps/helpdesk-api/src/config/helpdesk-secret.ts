/** The HS256 secret both the REST guard and the MCP endpoint verify tokens with (`HELPDESK_JWT_SECRET`). */
export function helpdeskSecret(env: NodeJS.ProcessEnv = process.env): string {
  const secret = env.HELPDESK_JWT_SECRET ?? '';
  if (secret.length < 32) throw new Error('HELPDESK_JWT_SECRET must be set to an HS256 secret of at least 32 characters');
  return secret;
}
