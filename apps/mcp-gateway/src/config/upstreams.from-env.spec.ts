import { upstreamsFromEnv } from './upstreams.from-env.js';

describe('GATEWAY_UPSTREAMS: auth of a url entry', () => {
  const perUser = {
    name: 'drive',
    url: 'https://drive.vendor.example/mcp',
    auth: {
      authorizationCode: {
        issuer: 'https://login.vendor.example',
        clientId: 'gateway',
        clientSecret: 'env:DRIVE_SECRET',
        encryptionKey: 'env:TOKENS_KEY',
        publicUrl: 'https://gateway.example.com',
        confirmUser: 'same-subject',
        scopes: ['files:read', 'offline_access'],
      },
    },
  };

  it('passes the grant on, its env: secrets read from the environment', () => {
    const { mcp } = upstreamsFromEnv(JSON.stringify([perUser]), { DRIVE_SECRET: 's3cret', TOKENS_KEY: 'k'.repeat(32) });
    expect(mcp[0].auth).toEqual({
      authorizationCode: { ...perUser.auth.authorizationCode, clientSecret: 's3cret', encryptionKey: 'k'.repeat(32) },
    });
  });

  it('names an unset variable, and refuses what is not one grant', () => {
    expect(() => upstreamsFromEnv(JSON.stringify([perUser]), { DRIVE_SECRET: 's3cret' })).toThrow(
      'GATEWAY_UPSTREAMS[0].auth.authorizationCode.encryptionKey (drive) names TOKENS_KEY, which is not set',
    );
    expect(() => upstreamsFromEnv(JSON.stringify([{ ...perUser, auth: { password: {} } }]))).toThrow(
      'GATEWAY_UPSTREAMS[0].auth (drive) must be one of { clientCredentials | tokenExchange | authorizationCode: {',
    );
  });
});
