import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { listen, type RunningApp } from '../kit/apps.js';
import { authorizeOverHttp } from '../kit/authorization-server.js';
import { REPO_ROOT } from '../kit/build.js';
import { callTool, envelopeOf, post } from '../kit/http.js';
import { freePort } from '../kit/redis-server.harness.js';
import { SecFixtureModule } from '../security/fixtures/sec-app.js';
import { startAuthorizationServer } from './dev-authorization-server.js';

/**
 * The OAuth page's development authorization server (docs/guide/oauth.md, "A local authorization server") is this
 * folder's dev-authorization-server.ts, word for word; here it issues tokens by client credentials and by
 * authorization code + PKCE (the user played over plain HTTP), and a server behind `auth.oauth` accepts them.
 */

const RECIPE = join(REPO_ROOT, 'test/oauth/dev-authorization-server.ts');
const PAGE = join(REPO_ROOT, 'docs/guide/oauth.md');
const REDIRECT_URI = 'http://127.0.0.1:53682/callback';

/** The fenced block right after `<!-- snippet: name -->` on a page. */
function snippetOf(page: string, name: string): string | undefined {
  const lines = readFileSync(page, 'utf8').split('\n');
  const at = lines.findIndex((line) => line.trim() === `<!-- snippet: ${name} -->`);
  if (at < 0 || !lines[at + 1]?.startsWith('```')) return undefined;
  const end = lines.findIndex((line, index) => index > at + 1 && line.startsWith('```'));
  return lines.slice(at + 2, end).join('\n') + '\n';
}

let authorizationServer: Server;
let issuer: string;
let app: RunningApp;
beforeAll(async () => {
  const [asPort, appPort] = [await freePort(), await freePort()];
  const resource = `http://127.0.0.1:${appPort}/mcp`;
  authorizationServer = startAuthorizationServer(asPort, resource, 'sec:read sec:write');
  await once(authorizationServer, 'listening');
  issuer = `http://127.0.0.1:${asPort}`;
  app = await listen([SecFixtureModule.with({ auth: { oauth: { issuer, resource } } })], { port: appPort });
});
afterAll(async () => {
  await app?.close();
  authorizationServer?.closeAllConnections();
  await new Promise((resolve) => authorizationServer?.close(resolve));
});

async function token(params: Record<string, string>, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(params),
  });
  const body = (await response.json()) as { access_token?: string; error_description?: string };
  if (!response.ok || !body.access_token) throw new Error(`token endpoint ${response.status}: ${body.error_description}`);
  return body.access_token;
}

async function whoami(accessToken: string): Promise<unknown> {
  const answer = await post(app.url, callTool(1, 'whoami'), { Authorization: `Bearer ${accessToken}` });
  expect(answer.status).toBe(200);
  return envelopeOf(answer).data;
}

it('the page shows this recipe word for word', () => {
  expect(snippetOf(PAGE, 'oidc-dev/auth-server.ts')).toBe(readFileSync(RECIPE, 'utf8'));
});

it('client credentials: a JWT for this server, accepted with its scope', async () => {
  const basic = `Basic ${Buffer.from('machine:machine-secret').toString('base64')}`;
  const accessToken = await token({ grant_type: 'client_credentials', scope: 'sec:read' }, { Authorization: basic });
  expect(decodeJwt(accessToken).aud).toBe(app.url);
  expect(await whoami(accessToken)).toEqual({ tenant: 'machine', subject: 'machine', scopes: ['sec:read'] });
  const write = await post(app.url, callTool(2, 'write_thing'), { Authorization: `Bearer ${accessToken}` });
  expect(write.status).toBe(403);
});

it('authorization code + PKCE: login and consent over HTTP, the code exchanged, the token accepted', async () => {
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL(`${issuer}/auth`);
  authorize.search = new URLSearchParams({
    client_id: 'mcp-app',
    response_type: 'code',
    redirect_uri: REDIRECT_URI,
    scope: 'openid sec:read sec:write',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  const callback = await authorizeOverHttp(authorize.href, REDIRECT_URI, 'alice');
  const code = callback.searchParams.get('code') ?? '';
  const exchange = { grant_type: 'authorization_code', client_id: 'mcp-app', redirect_uri: REDIRECT_URI, code };
  await expect(token({ ...exchange, code_verifier: randomBytes(32).toString('base64url') })).rejects.toThrow('token endpoint 400');
  const accessToken = await token({ ...exchange, code_verifier: verifier });
  expect(await whoami(accessToken)).toEqual({ tenant: 'alice', subject: 'alice', scopes: ['sec:read', 'sec:write'] });
});
