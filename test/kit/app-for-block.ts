import type { RunningApp } from './apps.js';

/**
 * Registers, in the calling describe block, the app `start` boots: started in a beforeAll, closed in an afterAll.
 * The handle it returns reads through to the running app, so use it inside tests and later hooks.
 * @example
 * const fixture = appForBlock(() => startFixture2026());
 * it('answers', async () => expect((await post(fixture.url, rpc(1, 'ping'))).status).toBe(200));
 */
export function appForBlock(start: () => Promise<RunningApp>, timeoutMs?: number): RunningApp {
  let running: RunningApp | undefined;
  const current = () => {
    if (!running) throw new Error('appForBlock: the app starts in beforeAll; read it inside a test or a later hook');
    return running;
  };
  beforeAll(async () => {
    running = await start();
  }, timeoutMs);
  afterAll(() => running?.close());
  return {
    get app() {
      return current().app;
    },
    get port() {
      return current().port;
    },
    get base() {
      return current().base;
    },
    get url() {
      return current().url;
    },
    close: () => current().close(),
  };
}
