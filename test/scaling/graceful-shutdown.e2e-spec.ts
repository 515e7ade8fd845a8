import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { McpTool } from '@nest-mcp/core';
import { eventually } from '../kit/eventually.js';
import { listenMcp, type RunningApp } from '../kit/apps.js';
import { callTool, envelopeOf, post, rpc } from '../kit/http.js';

/** A tool stuck in something that ignores its signal, and quick ones. */
@Injectable()
class ShutdownTools {
  started = 0;

  @McpTool({ name: 'stuck', description: 'Takes 4 s (past the grace) and ignores cancellation', timeoutMs: 10_000 })
  async stuck(): Promise<string> {
    this.started++;
    await new Promise((resolve) => setTimeout(resolve, 4_000).unref());
    return 'late';
  }

  @McpTool({ name: 'quick', description: 'Answers at once' })
  async quick(): Promise<string> {
    return 'ok';
  }

  @McpTool({ name: 'brief', description: 'Takes 300 ms' })
  async brief(): Promise<string> {
    this.started++;
    await new Promise((resolve) => setTimeout(resolve, 300));
    return 'done';
  }
}

/** Shutdown (what SIGTERM runs with `enableShutdownHooks()`): stop accepting, bound what runs, answer it retryably. */
describe('graceful shutdown of the tool calls in flight (shutdown.graceMs)', () => {
  let running: RunningApp;

  beforeEach(async () => {
    running = await listenMcp({ name: 'shutdown', version: '1.0.0', shutdown: { graceMs: 1_500 } }, [ShutdownTools]);
  });

  afterEach(async () => {
    await running?.close();
  });

  it('refuses new requests with 503 + Retry-After, lets notifications in, and answers the stuck call UNAVAILABLE after the grace', async () => {
    const stuck = post(running.url, callTool(1, 'stuck'));
    await eventually(() => running.app.get(ShutdownTools).started === 1, 5_000, 'the stuck call started');
    const closing = running.close();
    await new Promise((resolve) => setTimeout(resolve, 200));

    const refused = await post(running.url, callTool(2, 'quick'));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.json).toMatchObject({ jsonrpc: '2.0', id: 2, error: { message: expect.stringContaining('shutting down') } });
    // A notification (here a cancellation of nothing) is no new work: still accepted.
    expect((await post(running.url, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } })).status).toBe(202);

    const answer = await stuck;
    expect(answer.status).toBe(200);
    expect(envelopeOf(answer.json.result)).toMatchObject({ status: 'error', error: { code: 'UNAVAILABLE', retryable: true } });
    await closing;
  }, 15_000);

  it('lets a call that ends within the grace answer as usual', async () => {
    const brief = post(running.url, rpc(3, 'tools/call', { name: 'brief', arguments: {} }));
    await eventually(() => running.app.get(ShutdownTools).started === 1, 5_000, 'the call started');
    await running.close();
    expect(envelopeOf((await brief).json.result)).toMatchObject({ status: 'success', data: 'done' });
  });
});
