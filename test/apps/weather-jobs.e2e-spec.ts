import 'reflect-metadata';
import { startWeatherApp, type RunningApp } from '../kit/apps.js';
import { callTool, envelopeOf, post, rpc, send } from '../kit/http.js';

/**
 * The sample's job tool and the jobs route over HTTP (issue 21 item 9): a climate report for a city the sample does
 * not know is refused when the call is made, before any job exists; a pending job hands out its HTTP `poll_url`; an
 * unknown job on that REST route is a plain JSON 404, not a JSON-RPC error.
 */
describe('the weather sample: jobs over HTTP', () => {
  let app: RunningApp;
  const reportDelay = process.env.REPORT_DELAY_MS;

  beforeAll(async () => {
    process.env.REPORT_DELAY_MS = '20000';
    app = await startWeatherApp();
  });
  afterAll(async () => {
    await app?.close();
    if (reportDelay === undefined) delete process.env.REPORT_DELAY_MS;
    else process.env.REPORT_DELAY_MS = reportDelay;
  });

  const jobIds = async (): Promise<string[]> =>
    ((await post(app.url, rpc(9, 'tasks/list'))).json.result.tasks as { taskId: string }[]).map((task) => task.taskId);

  it('refuses generate_climate_report for an unknown city at once (VALIDATION_ERROR on city), and queues no job', async () => {
    const before = await jobIds();
    const answer = envelopeOf(await post(app.url, callTool(1, 'generate_climate_report', { city: 'Atlantis', years: 1 })));
    expect(answer).toMatchObject({
      status: 'error',
      error: { code: 'VALIDATION_ERROR', retryable: false, fields: ['city'], message: expect.stringContaining('Unknown city "Atlantis"') },
    });
    expect(await jobIds()).toEqual(before);
  });

  it('answers a known city pending, with the HTTP poll_url that serves the job', async () => {
    const pending = envelopeOf(await post(app.url, callTool(2, 'generate_climate_report', { city: '北京', years: 1 })));
    expect(pending).toMatchObject({
      status: 'pending',
      data: { job_id: expect.any(String), poll_url: expect.stringMatching(/^\/mcp\/jobs\//) },
    });
    const polled = await send(`${app.base}${pending.data.poll_url as string}`, {});
    expect(polled.status).toBe(200);
    expect(polled.json).toMatchObject({ status: 'pending', data: { job_id: pending.data.job_id } });
    expect(await jobIds()).toContain(pending.data.job_id);
  });

  it('answers GET of an unknown job with a plain JSON 404 (a REST route: no JSON-RPC body, no id)', async () => {
    const answer = await send(`${app.url}/jobs/no-such-job`, {});
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.json).toEqual({ error: { code: 'JOB_NOT_FOUND', message: 'No job "no-such-job" for this caller' } });
  });
});
