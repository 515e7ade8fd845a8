import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startWeatherApp, type RunningApp } from '../kit/apps.js';
import { REPO_ROOT } from '../kit/build.js';
import { callTool, post } from '../kit/http.js';

const run = promisify(execFile);

const SECRET = 'sample-token-e2e-hs256-secret-0123456789';

/** `npm run token -- <args>` as a user types it, with `env` beside the run's own environment. */
function token(args: string[], env: Record<string, string | undefined>) {
  return run(process.execPath, [join(REPO_ROOT, 'scripts/token.mjs'), ...args], { env: { ...process.env, ...env } });
}

/**
 * A token for the samples in one line (issue 41 item 4): `npm run token -- --tenant acme --scope "weather:read"`
 * signs with the secret the sample reads (`MCP_JWT_SECRET` for the weather server), and the weather server, booted
 * as production boots it, serves that caller as that tenant with those scopes.
 */
describe('npm run token for the weather server', () => {
  let server: RunningApp;
  beforeAll(async () => {
    server = await startWeatherApp({ env: { MCP_JWT_SECRET: SECRET } });
  });
  afterAll(() => server.close());

  it('mints a token the server accepts, with the tenant and scopes asked for', async () => {
    const { stdout } = await token(['--tenant', 'acme', '--scope', 'weather:read'], { MCP_JWT_SECRET: SECRET });
    const authorization = `Bearer ${stdout.trim()}`;

    const read = await post(server.url, callTool(1, 'get_weather', { city: 'Paris' }), { authorization });
    expect(read.status).toBe(200);
    expect(read.json.result.structuredContent.status).toBe('success');

    const write = await post(
      server.url,
      callTool(2, 'create_weather_alert', {
        city: 'Paris',
        threshold_celsius: 30,
        priority: 'low',
        idempotency_key: 'sample-token-e2e-0001',
      }),
      {
        authorization,
      },
    );
    expect(write.json.error.data.error).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('weather:write') });

    const unsigned = await post(server.url, callTool(3, 'get_weather', { city: 'Paris' }));
    expect(unsigned.status).toBe(401);
  });

  it('says in one line which variable to set when the secret is missing', async () => {
    const refused = await token(['--app', 'helpdesk'], { HELPDESK_JWT_SECRET: undefined }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringMatching(/^token: HELPDESK_JWT_SECRET is not set: .*\n$/) });
  });
});
