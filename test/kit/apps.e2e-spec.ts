import { ensureBuilt } from './build.js';
import { httpAdapterName, listenMcp, SpawnedWeatherServer, startWeatherApp, withEnv, type RunningApp } from './apps.js';

/**
 * The kit boots every app on the run's HTTP adapter (jest's "express" and "fastify" projects), including the sample
 * booted with a clean `MCP_*` environment and the spawned built server: otherwise a project would test express twice.
 */
describe(`the test kit on the run's HTTP adapter (${httpAdapterName()})`, () => {
  let app: RunningApp | undefined;
  let server: SpawnedWeatherServer | undefined;
  afterEach(async () => {
    await app?.close();
    await server?.stop('SIGTERM');
    app = server = undefined;
  });

  it('listenMcp and startWeatherApp listen on it', async () => {
    app = await listenMcp({ name: 'kit', version: '1.0.0' });
    expect(app.app.getHttpAdapter().getType()).toBe(httpAdapterName());
    await app.close();
    app = await startWeatherApp();
    expect(app.app.getHttpAdapter().getType()).toBe(httpAdapterName());
  });

  it('an explicit adapter option wins', async () => {
    const other = httpAdapterName() === 'express' ? 'fastify' : 'express';
    app = await listenMcp({ name: 'kit', version: '1.0.0' }, [], { adapter: other });
    expect(app.app.getHttpAdapter().getType()).toBe(other);
  });

  it('a misspelt MCP_TEST_HTTP_ADAPTER fails the boot instead of testing express', async () => {
    await expect(withEnv({ MCP_TEST_HTTP_ADAPTER: 'fastfy' }, () => listenMcp({ name: 'kit', version: '1.0.0' }))).rejects.toThrow(
      'MCP_TEST_HTTP_ADAPTER=fastfy is not an HTTP adapter',
    );
  });

  it('the spawned built weather server gets HTTP_ADAPTER and names it on its startup line', async () => {
    await ensureBuilt();
    server = await SpawnedWeatherServer.start({});
    expect(server.stderr).toContain(`/mcp (${httpAdapterName()})`);
  }, 60_000);
});
