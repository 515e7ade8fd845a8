import { listen, type RunningApp } from '../kit/apps.js';
import { MACHINE_CLIENT, TestAuthorizationServer } from '../kit/authorization-server.js';
import { freePort } from '../kit/redis-server.harness.js';
import { SecFixtureModule } from '../security/fixtures/sec-app.js';

/** The scopes the authorization server grants and the sec fixture's tools ask for. */
export const OAUTH_SCOPES = ['sec:read', 'sec:write'];
const TENANTS: Record<string, string> = { [MACHINE_CLIENT.id]: 'acme', alice: 'alice-corp' };

/**
 * oidc-provider and the sec fixture behind `auth.oauth` on a free port, the clients' flows' common ground: the
 * machine client is tenant `acme`, the user alice `alice-corp`. The resource is the URL clients connect to, since they
 * check the RFC 9728 `resource` against it.
 */
export async function startOAuthProtectedApp(): Promise<{ as: TestAuthorizationServer; app: RunningApp }> {
  const as = await TestAuthorizationServer.start({ scopes: OAUTH_SCOPES, tenantOf: (who) => TENANTS[who] });
  try {
    const port = await freePort();
    const oauth = { issuer: as.issuer, resource: `http://127.0.0.1:${port}/mcp` };
    return { as, app: await listen([SecFixtureModule.with({ auth: { oauth } })], { port }) };
  } catch (error) {
    await as.close();
    throw error;
  }
}
