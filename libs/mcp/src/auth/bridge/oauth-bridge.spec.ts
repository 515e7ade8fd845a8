import { McpMemoryStore } from '../../stores/memory.store.js';
import { McpOAuthBridge } from './oauth-bridge.js';
import type { BridgeRequest } from './bridge-reply.js';

describe('McpOAuthBridge registration (RFC 7591)', () => {
  let store: McpMemoryStore;
  let bridge: McpOAuthBridge;
  const register = (form: Record<string, unknown>) =>
    bridge.register({ query: new URLSearchParams(), form, cookies: {}, address: '127.0.0.1' } satisfies BridgeRequest);
  const errorOf = async (form: Record<string, unknown>) => {
    const reply = await register(form);
    return { status: reply.status, ...(JSON.parse(reply.body!) as { error: string; error_description: string }) };
  };

  beforeEach(() => {
    store = new McpMemoryStore();
    bridge = new McpOAuthBridge(
      {
        issuer: 'https://mcp.example.com',
        resource: 'https://mcp.example.com/mcp',
        signingSecret: 's'.repeat(32),
        upstream: { issuer: 'https://idp.example.com', clientId: 'bridge', clientSecret: 'secret' },
      },
      store,
      () => [],
    );
  });
  afterEach(() => store.close());

  it('registers a public client with acceptable redirect URIs, its name bounded', async () => {
    const reply = await register({ redirect_uris: ['https://app.example.com/cb'], client_name: 'n'.repeat(300) });
    const client = JSON.parse(reply.body!) as Record<string, unknown>;
    expect(reply.status).toBe(201);
    expect(client).toMatchObject({ redirect_uris: ['https://app.example.com/cb'], token_endpoint_auth_method: 'none' });
    expect(client.client_name).toBe('n'.repeat(200));
    expect(client).not.toHaveProperty('pending');
  });

  it('refuses missing, empty, too many or unacceptable redirect URIs, and clients with a secret', async () => {
    const tooMany = Array.from({ length: 11 }, (_, index) => `https://app.example.com/cb${index}`);
    for (const redirectUris of [undefined, [], tooMany])
      expect(await errorOf({ redirect_uris: redirectUris })).toEqual({
        status: 400,
        error: 'invalid_redirect_uri',
        error_description: 'redirect_uris must list 1 to 10 URIs',
      });
    expect(await errorOf({ redirect_uris: ['http://app.example.com/cb'] })).toEqual({
      status: 400,
      error: 'invalid_redirect_uri',
      error_description: 'each redirect URI must be https, or http on a loopback address, without a fragment',
    });
    expect(await errorOf({ redirect_uris: ['https://app.example.com/cb'], token_endpoint_auth_method: 'client_secret_basic' })).toEqual({
      status: 400,
      error: 'invalid_client_metadata',
      error_description: 'only public clients (token_endpoint_auth_method "none", with PKCE) are registered',
    });
  });
});
