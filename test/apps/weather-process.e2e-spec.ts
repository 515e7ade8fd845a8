import 'reflect-metadata';
import { connect, type Socket } from 'node:net';
import { SpawnedWeatherServer } from '../kit/apps.js';
import { ensureBuilt, WEATHER_MAIN } from '../kit/build.js';
import { callTool, envelopeOf, post } from '../kit/http.js';
import { StdioServerProcess } from '../kit/stdio.js';

/** Nest's log lines of `stderr` as `LEVEL [Context] message`: without colours, pid, time and `+Nms`, so repeats compare equal. */
function logLines(stderr: string): string[] {
  return stderr
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .map((line) => /^\[Nest\] \d+\s+- .+?\s+(LOG|WARN|ERROR|DEBUG|VERBOSE|FATAL) (\[[^\]]+\]) (.*?)(?: \+\d+ms)?$/.exec(line))
    .filter((match) => match !== null)
    .map(([, level, context, message]) => `${level} ${context} ${message}`);
}

/** A TCP connection to the server that sends nothing (a browser's preconnect, a client that connected and waits). */
function silentConnection(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });
}

/**
 * The built sample as production runs it (`node dist/apps/weather-server/main.js`, two MCP servers in one app), on
 * the run's adapter (issue 21 items 8 and 9): what it logs at boot and per call, how fast it stops, and what a
 * pending job hands out over stdio.
 */
describe('the built weather server as a process', () => {
  let server: SpawnedWeatherServer | undefined;
  let stdio: StdioServerProcess | undefined;
  const sockets: Socket[] = [];

  beforeAll(() => ensureBuilt(), 180_000);
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    if (server && !server.process.hasExited) await server.stop('SIGKILL');
    if (stdio && !stdio.hasExited) stdio.kill();
    server = stdio = undefined;
  });

  it('says each boot warning once, one summary line per MCP server, and no line per tool', async () => {
    server = await SpawnedWeatherServer.start({});
    // Nest writes LOG and WARN to stdout, ERROR to stderr.
    const lines = logLines(server.process.stdout + server.stderr);
    const warnings = lines.filter((line) => line.startsWith('WARN'));
    // Two servers without auth: said once, not once per server.
    expect(warnings).toEqual([
      'WARN [McpModule] No authentication configured (auth.jwt, auth.oauth, auth.bridge, auth.apiKeys or auth.authenticator): every caller is served as tenant "default".',
    ]);
    expect(lines.filter((line) => line.startsWith('LOG [McpModule]')).sort()).toEqual([
      'LOG [McpModule] weather-admin (/admin/mcp): 1 tool, 0 resources, 0 prompts',
      // The 7 decorated tools and the 2 job tools; the weather card's UI resource.
      'LOG [McpModule] weather-server (/mcp): 9 tools, 1 resource, 0 prompts',
    ]);
    expect(lines.filter((line) => /^(DEBUG|VERBOSE)/.test(line))).toEqual([]);
    // Nest's own lines (modules, routes) and ours: 57 before, with a DEBUG line per tool and the warning twice.
    expect(lines.length).toBeLessThanOrEqual(50);
  });

  it('adds no log line for an error a tool answers on purpose or a validation refusal', async () => {
    server = await SpawnedWeatherServer.start({});
    await post(server.url, callTool(1, 'get_weather', { city: 'Paris' }));
    const before = { stdout: server.process.stdout.length, stderr: server.stderr.length };
    const unknown = envelopeOf(await post(server.url, callTool(2, 'get_weather', { city: 'Atlantis' })));
    expect(unknown).toMatchObject({ status: 'error', error: { code: 'CITY_NOT_FOUND' } });
    const invalid = envelopeOf(await post(server.url, callTool(3, 'get_weather', { city: 7 })));
    expect(invalid).toMatchObject({ status: 'error', error: { code: 'VALIDATION_ERROR' } });
    const report = envelopeOf(await post(server.url, callTool(4, 'generate_climate_report', { city: 'Atlantis' })));
    expect(report).toMatchObject({ status: 'error', error: { code: 'VALIDATION_ERROR', fields: ['city'] } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.process.stdout.slice(before.stdout) + server.stderr.slice(before.stderr)).toBe('');
  });

  it('exits 0 promptly on SIGTERM when idle, even with a connection that never sent a request', async () => {
    server = await SpawnedWeatherServer.start({});
    await post(server.url, callTool(1, 'get_weather', { city: 'Paris' }));
    sockets.push(await silentConnection(server.port), await silentConnection(server.port));
    // Before: Node's close() waited for those connections' header timeout (over a minute); idle, it now takes about
    // 0.1 s, and the bound leaves room for a loaded machine.
    const exit = await server.stop('SIGTERM', 2_000);
    expect(exit).toEqual({ code: 0, signal: null });
  });

  it('over stdio, a pending job has no poll_url (no HTTP route to poll): get_job_status polls it', async () => {
    stdio = new StdioServerProcess(WEATHER_MAIN, ['--stdio'], { REDIS_URL: '', REDIS_CLUSTER_NODES: '', REPORT_DELAY_MS: '20000' });
    stdio.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'stdio-e2e', version: '1.0.0' } },
    });
    await stdio.response(1, 20_000);
    stdio.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    stdio.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'generate_climate_report', arguments: { city: 'Paris' } } });
    const pending = envelopeOf((await stdio.response(2)).result);
    expect(pending).toEqual({ status: 'pending', data: { job_id: expect.any(String), estimated_seconds: 2 } });
    stdio.send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'get_job_status', arguments: { job_id: pending.data.job_id } },
    });
    const polled = envelopeOf((await stdio.response(3)).result);
    expect(polled).toMatchObject({ status: 'pending', data: { job_id: pending.data.job_id } });
    expect(polled.data).not.toHaveProperty('poll_url');
  });
});
