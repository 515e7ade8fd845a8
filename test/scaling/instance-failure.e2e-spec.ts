import { bullJobField, instancesOnOneRedis, invokeTool, jobRunner, openSseSession, pollUntil } from './scaling-support.js';
import { SseReader } from '../kit/sse.js';

/**
 * The built weather server (`node dist/apps/weather-server/main.js`) as two real processes on one Redis: one is
 * killed (SIGKILL) or stopped (SIGTERM) while it works, and the other carries on.
 */
describe('an instance that dies or is stopped', () => {
  const shared = instancesOnOneRedis({ built: true });
  // A 3 s report; a dead worker's lock expires after 2 s and is looked for every second.
  const twoInstances = () =>
    shared.spawn(2, { REPORT_DELAY_MS: '3000', MCP_JOBS_LOCK_DURATION_MS: '2000', MCP_JOBS_STALLED_INTERVAL_MS: '1000' });

  /** After a graceful close Nest re-raises the signal it got; a crash would exit with a code instead. */
  const cleanExit = (exit: { code: number | null; signal: NodeJS.Signals | null }) => exit.signal === 'SIGTERM' || exit.code === 0;

  it('kill -9 of the instance running a job: the other takes it over and it ends within a bounded time', async () => {
    const [a, b] = await twoInstances();
    const started = await invokeTool(a.url, 'generate_climate_report', { city: 'Sydney', years: 3 });
    expect(started.envelope).toMatchObject({ status: 'pending' });
    const jobId = started.envelope.data.job_id as string;

    const runner = await jobRunner(shared.redis.url, jobId, [a, b]);
    const survivor = runner === a ? b : a;
    expect((await invokeTool(survivor.url, 'get_job_status', { job_id: jobId })).envelope.status).toBe('pending');
    expect(await runner.stop('SIGKILL')).toMatchObject({ signal: 'SIGKILL' });

    // Lock expiry (2 s) + stalled checks (1 s) + a fresh 3 s run, with room to spare: never pending for ever.
    const final = await pollUntil(
      () => invokeTool(survivor.url, 'get_job_status', { job_id: jobId }),
      (status) => status.envelope?.status !== 'pending',
      20_000,
      200,
    );
    expect(['success', 'error']).toContain(final.envelope.status);
    expect(final.envelope).toMatchObject({ status: 'success', data: { city: { name: 'Sydney' } } });
    expect(await bullJobField(shared.redis.url, jobId, 'pb')).toBeNull(); // completed and removed from the queue

    const polled = await fetch(`${survivor.url}/jobs/${jobId}`);
    expect(await polled.json()).toEqual(final.envelope);
    await survivor.stop('SIGTERM');
  }, 60_000);

  it('SIGTERM: open SSE streams get a retry: hint and end, the running job finishes, and the process exits cleanly', async () => {
    const [a, b] = await twoInstances();
    const started = await invokeTool(a.url, 'generate_climate_report', { city: 'Lima', years: 3 });
    const jobId = started.envelope.data.job_id as string;
    const runner = await jobRunner(shared.redis.url, jobId, [a, b]);
    const other = runner === a ? b : a;

    const sseSession = await openSseSession(runner.baseUrl);
    const stopping = runner.stop('SIGTERM', 20_000);
    // The stream is closed at once with a retry hint, while the job is still running.
    const rest = await sseSession.reader.readToEnd(5_000);
    expect(rest.some((item) => item.kind === 'event' && item.retry !== undefined && item.retry > 0)).toBe(true);
    expect(sseSession.reader.done).toBe(true);
    expect((await invokeTool(other.url, 'get_job_status', { job_id: jobId })).envelope.status).toBe('pending');

    // Graceful: the worker finished its job before the process exited (Nest re-raises the signal once closed).
    expect(cleanExit(await stopping)).toBe(true);
    expect((await invokeTool(other.url, 'get_job_status', { job_id: jobId })).envelope).toMatchObject({
      status: 'success',
      data: { city: { name: 'Lima' } },
    });

    // Clients reconnect to the other instance.
    const reconnected = await openSseSession(other.baseUrl);
    await reconnected.close();
    await other.stop('SIGTERM');
  }, 60_000);

  it('SIGTERM also ends a Streamable HTTP GET stream with a retry: hint', async () => {
    const [a, b] = await twoInstances();
    await b.stop('SIGTERM');
    const init = await fetch(a.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });
    const sessionId = init.headers.get('mcp-session-id')!;
    const response = await fetch(a.url, {
      headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-11-25' },
    });
    const reader = new SseReader(response);
    expect(await reader.nextEvent()).toMatchObject({ data: '' }); // the priming event, before any shutdown
    const stopping = a.stop('SIGTERM');
    const items = await reader.readToEnd(5_000);
    expect(items.some((item) => item.kind === 'event' && item.retry !== undefined)).toBe(true);
    expect(cleanExit(await stopping)).toBe(true);
  }, 60_000);
});
