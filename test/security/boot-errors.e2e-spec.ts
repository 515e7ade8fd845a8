import { McpConfigurationError, type McpModuleOptions } from '@nest-mcp/core';
import { AppModule } from '../../apps/weather-server/src/app.module.js';
import { SecFixtureModule } from './fixtures/sec-app.js';
import { HS_SECRET, keyPair } from './fixtures/tokens.js';
import { initApp } from '../kit/apps.js';

/**
 * Unsafe or contradictory auth options never boot (so a half-configured server never starts open): the boot
 * rejects with McpConfigurationError naming the option.
 */

/** compile → create the app on the run's adapter → init; always closes what it opened. */
const boot = (imports: unknown[]): Promise<void> => initApp(imports as never[]);

const bootWith = (options: Partial<McpModuleOptions>) => boot([SecFixtureModule.with(options)]);

async function expectConfigError(attempt: Promise<void>, option: string): Promise<void> {
  const error = await attempt.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(McpConfigurationError);
  expect((error as Error).message).toContain(`"${option}"`);
}

describe('boot errors for unsafe auth options', () => {
  it('auth.jwt with both secret and jwksUrl', async () => {
    await expectConfigError(bootWith({ auth: { jwt: { secret: HS_SECRET, jwksUrl: 'https://auth.example.com/jwks.json' } } }), 'auth.jwt');
  });

  it('auth.jwt with both secret and publicKey', async () => {
    const { publicPem } = await keyPair('ES256', 'k');
    await expectConfigError(bootWith({ auth: { jwt: { secret: HS_SECRET, publicKey: publicPem } } }), 'auth.jwt');
  });

  it('auth.jwt with no key source at all', async () => {
    await expectConfigError(bootWith({ auth: { jwt: {} } }), 'auth.jwt');
  });

  it('a secret shorter than 32 characters', async () => {
    await expectConfigError(bootWith({ auth: { jwt: { secret: 'x'.repeat(31) } } }), 'auth.jwt.secret');
  });

  it('a secret of exactly 32 characters boots', async () => {
    await expect(bootWith({ auth: { jwt: { secret: 'y'.repeat(32) } } })).resolves.toBeUndefined();
  });

  it.each([[['none']], [['NONE']], [['HS256', 'none']], [['None']]])('algorithms: %j', async (algorithms) => {
    await expectConfigError(bootWith({ auth: { jwt: { secret: HS_SECRET, algorithms } } }), 'auth.jwt.algorithms');
  });

  it("algorithms: ['none'] with a public key", async () => {
    const { publicPem } = await keyPair('RS256', 'k');
    await expectConfigError(bootWith({ auth: { jwt: { publicKey: publicPem, algorithms: ['none'] } } }), 'auth.jwt.algorithms');
  });

  it('a secret with a non-HMAC algorithm (key confusion)', async () => {
    await expectConfigError(bootWith({ auth: { jwt: { secret: HS_SECRET, algorithms: ['RS256'] } } }), 'auth.jwt.algorithms');
  });

  it('a publicKey that is not PEM', async () => {
    await expectConfigError(bootWith({ auth: { jwt: { publicKey: 'not a pem' } } }), 'auth.jwt.publicKey');
  });

  it('a jwksUrl that is not http(s)', async () => {
    await expectConfigError(bootWith({ auth: { jwt: { jwksUrl: 'file:///etc/passwd' } } }), 'auth.jwt.jwksUrl');
  });

  it('an API key shorter than 16 characters', async () => {
    await expectConfigError(bootWith({ auth: { apiKeys: [{ key: 'short-key-15chr', tenant: 't' }] } }), 'auth.apiKeys[0].key');
  });

  it('an API key without a tenant', async () => {
    await expectConfigError(bootWith({ auth: { apiKeys: [{ key: 'long-enough-api-key-000', tenant: '' }] } }), 'auth.apiKeys[0].tenant');
  });

  it('duplicate API keys', async () => {
    const key = 'duplicate-api-key-0123456789';
    await expectConfigError(
      bootWith({
        auth: {
          apiKeys: [
            { key, tenant: 'a' },
            { key, tenant: 'b' },
          ],
        },
      }),
      'auth.apiKeys',
    );
  });

  it('resourceMetadata without authorization servers', async () => {
    await expectConfigError(
      bootWith({ auth: { jwt: { secret: HS_SECRET }, resourceMetadata: { resource: 'https://mcp.example.com/mcp' } as never } }),
      'auth.resourceMetadata.authorizationServers',
    );
  });

  it('resourceMetadata with an empty authorization server list', async () => {
    await expectConfigError(
      bootWith({
        auth: { jwt: { secret: HS_SECRET }, resourceMetadata: { resource: 'https://mcp.example.com/mcp', authorizationServers: [] } },
      }),
      'auth.resourceMetadata.authorizationServers',
    );
  });

  it('an authenticator beside apiKeys', async () => {
    await expectConfigError(
      bootWith({
        auth: { authenticator: { authenticate: async () => undefined }, apiKeys: [{ key: 'long-enough-api-key-000', tenant: 't' }] },
      }),
      'auth.authenticator',
    );
  });

  it('an error message never contains the rejected secret', async () => {
    const weak = 'weak-secret-value';
    const error = await bootWith({ auth: { jwt: { secret: weak } } }).catch((caught: Error) => caught);
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect((error as Error).message).not.toContain(weak);
  });
});

describe('boot errors of the weather-server from its environment (forRootAsync)', () => {
  async function bootWeather(env: Record<string, string>): Promise<void> {
    const saved = { ...process.env };
    for (const key of Object.keys(process.env)) if (key.startsWith('MCP_')) delete process.env[key];
    Object.assign(process.env, env);
    try {
      await boot([AppModule]);
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
    }
  }

  it('MCP_JWT_SECRET shorter than 32 characters refuses to boot', async () => {
    await expectConfigError(bootWeather({ MCP_JWT_SECRET: 'too-short' }), 'auth.jwt.secret');
  });

  it('an MCP_API_KEYS entry shorter than 16 characters refuses to boot', async () => {
    await expectConfigError(bootWeather({ MCP_API_KEYS: 'short|tenant-a|weather:read' }), 'auth.apiKeys[0].key');
  });

  it('a duplicated MCP_API_KEYS entry refuses to boot', async () => {
    await expectConfigError(bootWeather({ MCP_API_KEYS: 'same-key-0123456789|a,same-key-0123456789|b' }), 'auth.apiKeys');
  });
});

describe('boot errors for unknown option keys', () => {
  it('a misspelt top-level key (sesions) fails app.init() naming it and "sessions"', async () => {
    const error = await bootWith({ sesions: { mode: 'stateless' } } as Partial<McpModuleOptions>).catch((caught: Error) => caught);
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect((error as Error).message).toContain('"sesions"');
    expect((error as Error).message).toContain('did you mean "sessions"?');
  });

  it('a misspelt nested key names its path (limits.maxSesionsPerTenant)', async () => {
    const error = await bootWith({ limits: { maxSesionsPerTenant: 5 } } as Partial<McpModuleOptions>).catch((caught: Error) => caught);
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect((error as Error).message).toContain('"limits.maxSesionsPerTenant"');
    expect((error as Error).message).toContain('did you mean "limits.maxSessionsPerTenant"?');
  });
});
