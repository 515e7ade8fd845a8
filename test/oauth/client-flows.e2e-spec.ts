import { execFileSync, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformation, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import {
  authorizeOverHttp,
  MACHINE_CLIENT,
  PUBLIC_CLIENT,
  PUBLIC_REDIRECT_URI,
  TestAuthorizationServer,
} from '../kit/authorization-server.js';
import type { RunningApp } from '../kit/apps.js';
import { OAUTH_SCOPES, startOAuthProtectedApp } from './oauth-protected-app.js';
import { PYTHON } from '../kit/python.js';

/**
 * The official clients' own OAuth flows against a real authorization server (oidc-provider): from the server's
 * 401 through RFC 9728 and OpenID discovery to a token bound to this resource (RFC 8707), then a tool call. The
 * user's login and consent are played over HTTP ({@link authorizeOverHttp}).
 */

const PYTHON_SCRIPT = join(dirname(fileURLToPath(import.meta.url)), '../clients/python/oauth_call.py');

let as: TestAuthorizationServer;
let app: RunningApp;
beforeAll(async () => {
  ({ as, app } = await startOAuthProtectedApp());
});
afterAll(async () => {
  await app?.close();
  await as?.close();
});

/** The data of whoami's structured result. */
async function whoami(client: Client): Promise<Record<string, unknown>> {
  const result = await client.callTool({ name: 'whoami', arguments: {} });
  expect(result.isError).toBeFalsy();
  return (result.structuredContent as { data: Record<string, unknown> }).data;
}

/** A public client of the authorization-code flow, registered beforehand; the user is played over HTTP. */
class PlayedUserProvider implements OAuthClientProvider {
  private saved?: OAuthTokens;
  private verifier = '';
  callbackUrl?: URL;

  constructor(private readonly account: string) {}

  get redirectUrl(): string {
    return PUBLIC_REDIRECT_URI;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      redirect_uris: [PUBLIC_REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: OAUTH_SCOPES.join(' '),
    };
  }
  clientInformation(): OAuthClientInformation {
    return { client_id: PUBLIC_CLIENT.id };
  }
  tokens(): OAuthTokens | undefined {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    return this.verifier;
  }
  async redirectToAuthorization(url: URL): Promise<void> {
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    this.callbackUrl = await authorizeOverHttp(url.href, PUBLIC_REDIRECT_URI, this.account);
  }
}

describe('the TypeScript SDK client (v1)', () => {
  it('client credentials (ClientCredentialsProvider): 401 → discovery → token → tool call', async () => {
    const provider = new ClientCredentialsProvider({
      clientId: MACHINE_CLIENT.id,
      clientSecret: MACHINE_CLIENT.secret,
      scope: 'sec:read',
      expectedIssuer: as.issuer,
    });
    const client = new Client({ name: 'oauth-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(app.url), { authProvider: provider }));
    try {
      expect(await whoami(client)).toEqual({ tenant: 'acme', subject: MACHINE_CLIENT.id, scopes: ['sec:read'] });
      expect(provider.tokens()?.access_token.split('.')).toHaveLength(3);
    } finally {
      await client.close();
    }
  });

  it('authorization code + PKCE (OAuthClientProvider): login and consent, finishAuth, then a tool call', async () => {
    const provider = new PlayedUserProvider('alice');
    const first = new StreamableHTTPClientTransport(new URL(app.url), { authProvider: provider });
    await expect(new Client({ name: 'oauth-e2e', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    const code = provider.callbackUrl?.searchParams.get('code');
    expect(code).toEqual(expect.any(String));
    await first.finishAuth(code!);
    await first.close();

    const client = new Client({ name: 'oauth-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(app.url), { authProvider: provider }));
    try {
      expect(await whoami(client)).toEqual({ tenant: 'alice-corp', subject: 'alice', scopes: ['sec:read', 'sec:write'] });
    } finally {
      await client.close();
    }
  });
});

/** Why the Python client cannot run here, or undefined. */
function missingPython(): string | undefined {
  try {
    execFileSync(PYTHON, ['-c', 'import mcp.client.auth, httpx2'], { stdio: 'pipe', timeout: 20_000 });
    return undefined;
  } catch {
    return "python3 with the mcp package is not installed (.ci/ensure-test-deps, npm test's pretest, installs it into .venv/)";
  }
}

/** Runs oauth_call.py; when it prints {"authorize": url}, plays the user and writes the redirect back. */
function pythonOAuthCall(args: string[], account?: string): Promise<{ is_error: boolean; data: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [PYTHON_SCRIPT, ...args], { env: { ...process.env, PYTHONWARNINGS: 'ignore' } });
    const timer = setTimeout(() => child.kill(), 30_000);
    let stderr = '';
    let last = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    createInterface({ input: child.stdout }).on('line', (line) => {
      last = line;
      const asked = (JSON.parse(line) as { authorize?: string }).authorize;
      if (asked && account)
        authorizeOverHttp(asked, PUBLIC_REDIRECT_URI, account).then(
          (callback) => child.stdin.write(`${callback.href}\n`),
          (error: Error) => (child.kill(), reject(error)),
        );
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`oauth_call.py exited with ${code}: ${stderr.slice(-2_000)}`));
      resolve(JSON.parse(last) as { is_error: boolean; data: Record<string, unknown> });
    });
  });
}

const missing = missingPython();
if (missing) console.log(`SKIP: Python OAuth client e2e: ${missing}`);

(missing ? describe.skip : describe)('the Python mcp client', () => {
  it('client credentials (ClientCredentialsOAuthProvider) reach a token and call a tool', async () => {
    const answer = await pythonOAuthCall(['client-credentials', app.url, as.issuer, MACHINE_CLIENT.id, MACHINE_CLIENT.secret, 'sec:read']);
    // This client asks for the RFC 9728 document's scopes_supported (the tools' scopes) over its own `scope`.
    expect(answer).toEqual({ is_error: false, data: { tenant: 'acme', subject: MACHINE_CLIENT.id, scopes: OAUTH_SCOPES } });
  });

  it('authorization code + PKCE (OAuthClientProvider) with the login played over HTTP', async () => {
    const answer = await pythonOAuthCall(
      ['authorization-code', app.url, as.issuer, PUBLIC_CLIENT.id, PUBLIC_REDIRECT_URI, OAUTH_SCOPES.join(' ')],
      'alice',
    );
    expect(answer).toEqual({ is_error: false, data: { tenant: 'alice-corp', subject: 'alice', scopes: ['sec:read', 'sec:write'] } });
  });
});
