import type { McpUpstreamUserConfirmation } from '../../../options/mcp-outbound-auth.interface.js';
import type { UpstreamUser } from './upstream-user-authorization.js';

/**
 * Whether the person who completed a sign-in (the verified ID token's `claims`) is the gateway user who was handed
 * the link: `confirmUser` decides. A function that throws refuses (the flow fails closed).
 */
export async function confirmsUser(
  confirm: Exclude<McpUpstreamUserConfirmation, 'unverified'>,
  user: UpstreamUser,
  claims: Record<string, unknown>,
): Promise<boolean> {
  if (confirm === 'same-subject') return typeof claims.sub === 'string' && claims.sub === user.subject;
  try {
    return (await confirm({ tenant: user.tenant, subject: user.subject }, { ...claims })) === true;
  } catch {
    return false;
  }
}
