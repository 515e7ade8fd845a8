import { jest } from '@jest/globals';
import { HS_SECRET, signToken } from './fixtures/tokens.js';
import { KEYS, MCP_API_KEYS } from './fixtures/weather-app.js';
import { ensureBuilt, WEATHER_MAIN } from '../kit/build.js';
import { StdioServerProcess } from '../kit/stdio.js';

/**
 * stdio has no headers: the built weather server takes its credentials from MCP_TOKEN and checks them before
 * reading stdin. A good credential serves tools filtered by its scopes; a bad one exits non-zero with the error
 * on stderr and nothing on stdout.
 */

jest.setTimeout(200_000);

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'security-e2e', version: '1.0.0' } },
};

function names(response: any): string[] {
  return response.result.tools.map((tool: { name: string }) => tool.name).sort();
}

async function handshake(server: StdioServerProcess): Promise<void> {
  server.send(INITIALIZE);
  const init = await server.response(1);
  expect(init.result.serverInfo.name).toBe('weather-server');
  server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
}

/** Sends request `id`: create_weather_alert (the write tool) with idempotency key `key`. */
function createAlert(server: StdioServerProcess, id: number, key: string): void {
  const args = { city: 'Beijing', threshold_celsius: 30, priority: 'high', idempotency_key: key };
  server.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'create_weather_alert', arguments: args } });
}

/** Every stdout line is exactly one JSON-RPC 2.0 message. */
function expectProtocolOnly(server: StdioServerProcess): void {
  for (const message of server.messages()) {
    expect(message).toMatchObject({ jsonrpc: '2.0' });
    expect('id' in message || 'method' in message).toBe(true);
  }
}

describe('stdio credentials (node dist/apps/weather-server/main.js --stdio)', () => {
  const running: StdioServerProcess[] = [];
  const start = (env: Record<string, string>) => {
    const server = new StdioServerProcess(WEATHER_MAIN, ['--stdio'], env);
    running.push(server);
    return server;
  };

  beforeAll(async () => {
    await ensureBuilt();
  }, 200_000);

  afterEach(() => {
    for (const server of running.splice(0)) server.kill();
  });

  it('a read-only API key in MCP_TOKEN: served; tools/list lacks the write tool; calling it → FORBIDDEN envelope', async () => {
    const server = start({ MCP_API_KEYS, MCP_TOKEN: KEYS.readOnly });
    await handshake(server);

    server.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const listed = names(await server.response(2));
    expect(listed).toEqual(expect.arrayContaining(['get_forecast', 'get_weather', 'list_weather_alerts']));
    expect(listed).not.toContain('create_weather_alert');

    createAlert(server, 3, 'stdio-idempotency-0001');
    const refused = await server.response(3);
    const envelope = refused.result?.structuredContent ?? refused.error?.data;
    expect(envelope).toMatchObject({ status: 'error', error: { code: 'FORBIDDEN', retryable: false } });
    if (refused.result) expect(refused.result.isError).toBe(true);

    server.send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'list_weather_alerts', arguments: {} } });
    expect((await server.response(4)).result.structuredContent).toEqual({ status: 'success', data: { alerts: [] } });

    server.child.stdin.end();
    const exit = await server.waitForExit();
    expect(exit).toMatchObject({ code: 0, timedOut: false });
    expectProtocolOnly(server);
    expect(server.stdout).not.toContain(KEYS.readOnly);
  });

  it('a read-write API key in MCP_TOKEN sees and may call create_weather_alert', async () => {
    const server = start({ MCP_API_KEYS, MCP_TOKEN: KEYS.a });
    await handshake(server);
    server.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(names(await server.response(2))).toContain('create_weather_alert');
    createAlert(server, 3, 'stdio-idempotency-0002');
    expect((await server.response(3)).result.structuredContent).toMatchObject({ status: 'success', data: { city: 'Beijing' } });
    server.child.stdin.end();
    expect((await server.waitForExit()).code).toBe(0);
    expectProtocolOnly(server);
  });

  it('a JWT in MCP_TOKEN (MCP_JWT_SECRET): scopes from the token filter tools/list', async () => {
    const token = await signToken({ sub: 'stdio-user', tenant_id: 'stdio-co', scope: 'weather:read' }, HS_SECRET);
    const server = start({ MCP_JWT_SECRET: HS_SECRET, MCP_TOKEN: token });
    await handshake(server);
    server.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const listed = names(await server.response(2));
    expect(listed).toContain('get_weather');
    expect(listed).not.toContain('create_weather_alert');
    server.child.stdin.end();
    expect((await server.waitForExit()).code).toBe(0);
    expect(server.stdout).not.toContain(token);
    expect(server.stderr).not.toContain(HS_SECRET);
  });

  it.each([
    ['a wrong API key', () => ({ MCP_API_KEYS, MCP_TOKEN: 'key-that-is-not-configured-0000' })],
    ['no MCP_TOKEN while API keys are configured', () => ({ MCP_API_KEYS })],
  ])('%s: exits non-zero, error on stderr, stdout empty', async (_name, env) => {
    const server = start(env());
    server.send(INITIALIZE);
    const exit = await server.waitForExit();
    expect(exit.timedOut).toBe(false);
    expect(exit.code).not.toBe(0);
    expect(exit.code).not.toBeNull();
    expect(server.stdout).toBe('');
    expect(server.stderr).toMatch(/\S/);
    expect(server.stderr).toMatch(/invalid|unauthori[sz]ed|authentication|credential|token|key/i);
    for (const secret of [KEYS.a, KEYS.b, KEYS.readOnly, 'key-that-is-not-configured-0000']) expect(server.stderr).not.toContain(secret);
  });

  it('auth configured and no MCP_TOKEN: exit code 1, one stderr line naming MCP_TOKEN, no stack', async () => {
    const server = start({ MCP_API_KEYS });
    const exit = await server.waitForExit();
    expect(exit).toMatchObject({ code: 1, timedOut: false });
    expect(server.stdout).toBe('');
    const lines = server.stderr.split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('MCP_TOKEN');
    expect(lines[0]).not.toMatch(/header|X-API-Key|Authorization/i);
    expect(server.stderr).not.toMatch(/^\s+at /m);
  });

  it('a refused MCP_TOKEN: exit code 1, one stderr line naming MCP_TOKEN, the key not echoed', async () => {
    const server = start({ MCP_API_KEYS, MCP_TOKEN: 'key-that-is-not-configured-0000' });
    const exit = await server.waitForExit();
    expect(exit).toMatchObject({ code: 1, timedOut: false });
    const lines = server.stderr.split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('MCP_TOKEN');
    expect(server.stderr).not.toContain('key-that-is-not-configured-0000');
    expect(server.stderr).not.toMatch(/^\s+at /m);
  });

  it('an expired JWT in MCP_TOKEN: exits non-zero, stdout empty, the token is not echoed', async () => {
    const token = await signToken({ sub: 'stdio-user' }, HS_SECRET, { expiresIn: -3600 });
    const server = start({ MCP_JWT_SECRET: HS_SECRET, MCP_TOKEN: token });
    const exit = await server.waitForExit();
    expect(exit.timedOut).toBe(false);
    expect(exit.code).not.toBe(0);
    expect(server.stdout).toBe('');
    expect(server.stderr).toMatch(/\S/);
    expect(server.stderr).not.toContain(token);
    expect(server.stderr).not.toContain(HS_SECRET);
  });
});
