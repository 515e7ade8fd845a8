import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { callTool, post } from '../kit/http.js';
import {
  type ChaosClientKind,
  type ChaosOutcome,
  type ChaosTally,
  classifyResult,
  classifyToolAnswer,
  envelopeOfResult,
  type ToolCallAnswer,
} from './chaos-tally.js';

/**
 * A client gives up on a request (and counts it unanswered) after this long: longer than the server's longest own
 * wait (a retry waiting for the first call with its idempotency key, up to the tool timeout, 30 s), so every wait
 * the server bounds ends with its answer rather than with the client's patience.
 */
const REQUEST_TIMEOUT_MS = 40_000;
/** Between two requests of one client; after a retryable answer, the wait a client would take. */
const PAUSE_MS = 100;
const RETRY_PAUSE_MS = 300;
const POLL_INTERVAL_MS = 250;

/** What every client loop shares: the load balancer, credentials, the tally and the run's end. */
export interface ChaosContext {
  /** `http://127.0.0.1:<nginx port>` */
  baseUrl: string;
  tally: ChaosTally;
  /** True once the clients should stop starting new work. */
  stopped(): boolean;
}

const pause = (outcome?: ChaosOutcome) =>
  new Promise((resolve) => setTimeout(resolve, outcome?.verdict === 'ok' ? PAUSE_MS : RETRY_PAUSE_MS));
const apiKeyHeaders = (apiKey: string) => ({ 'X-API-Key': apiKey });
const CITIES = ['Paris', 'Tokyo', 'Lima', 'Sydney', '北京', 'Nairobi'];

/** Connects `client` over `transport`, tallied as an `initialize`; when that fails, closes it and pauses (false). */
async function connectTallied(context: ChaosContext, kind: ChaosClientKind, client: Client, transport: Transport): Promise<boolean> {
  const { outcome } = await context.tally.measure(
    kind,
    () => client.connect(transport, { timeout: REQUEST_TIMEOUT_MS }),
    () => ({ verdict: 'ok', kind: 'initialize' }),
  );
  if (outcome.verdict === 'ok') return true;
  await client.close().catch(() => undefined);
  await pause(outcome);
  return false;
}

/** One get_weather call through `client`, tallied; the outcome says whether the session is still usable. */
async function weatherCallTallied(context: ChaosContext, kind: ChaosClientKind, client: Client, city: string): Promise<ChaosOutcome> {
  const { outcome } = await context.tally.measure(
    kind,
    () => client.callTool({ name: 'get_weather', arguments: { city } }, undefined, { timeout: REQUEST_TIMEOUT_MS }),
    (result) => classifyResult(result),
  );
  return outcome;
}

/** One stateless `tools/call` over raw HTTP; the answer's JSON-RPC message from a JSON or an SSE body. */
export async function toolCall(
  url: string,
  name: string,
  args: Record<string, unknown>,
  headers: Record<string, string>,
): Promise<ToolCallAnswer> {
  const response = await post(url, callTool(1, name, args), headers, AbortSignal.timeout(REQUEST_TIMEOUT_MS));
  return {
    status: response.status,
    headers: response.headers,
    text: response.text,
    answer: response.messages.find((message) => message.id === 1),
  };
}

/**
 * An SDK client with a session (Streamable HTTP through the load balancer) calling get_weather in a loop. As a real
 * client does, it opens a new session when the server answers 404 (session gone) or the transport closed.
 */
export async function sdkHttpClient(context: ChaosContext, apiKey: string, index: number): Promise<void> {
  let client: Client | undefined;
  while (!context.stopped()) {
    if (!client) {
      const fresh = new Client({ name: `chaos-http-${index}`, version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(`${context.baseUrl}/mcp`), {
        requestInit: { headers: apiKeyHeaders(apiKey) },
      });
      if (!(await connectTallied(context, 'sdk-http', fresh, transport))) continue;
      client = fresh;
    }
    const session = client;
    const outcome = await weatherCallTallied(context, 'sdk-http', session, CITIES[index % CITIES.length]);
    if (outcome.kind === 'session-404' || outcome.kind === 'connection-closed') {
      await session.close().catch(() => undefined);
      client = undefined;
    }
    await pause(outcome);
  }
  await client?.close().catch(() => undefined);
}

/**
 * An SDK client of the 2024-11-05 HTTP+SSE transport through the load balancer, calling get_weather in a loop. When
 * its stream drops (its instance died) or a POST is refused, it closes the client — pending calls end with
 * "Connection closed" at once — and connects again, as a real client would.
 */
export async function sdkSseClient(context: ChaosContext, apiKey: string, index: number): Promise<void> {
  let client: Client | undefined;
  while (!context.stopped()) {
    if (!client) {
      const fresh = new Client({ name: `chaos-sse-${index}`, version: '1.0.0' });
      const headers = apiKeyHeaders(apiKey);
      const transport = new SSEClientTransport(new URL(`${context.baseUrl}/sse`), { requestInit: { headers } });
      if (!(await connectTallied(context, 'sdk-sse', fresh, transport))) continue;
      // The stream dropped: the EventSource would reconnect to a new, uninitialized session; start over instead.
      fresh.onerror = () => void fresh.close().catch(() => undefined);
      fresh.onclose = () => {
        if (client === fresh) client = undefined;
      };
      client = fresh;
    }
    const session = client;
    const outcome = await weatherCallTallied(context, 'sdk-sse', session, CITIES[(index + 3) % CITIES.length]);
    if (outcome.verdict !== 'ok') {
      await session.close().catch(() => undefined);
      client = undefined;
    }
    await pause(outcome);
  }
  await client?.close().catch(() => undefined);
}

/** What became of one accepted job. */
export interface ChaosJob {
  jobId: string;
  acceptedAt: number;
  /** The job's final envelope, once a poll saw it. */
  final?: any;
  finalAt?: number;
  /** Set when a poll answered that the job does not exist. */
  missing?: boolean;
}

/**
 * Submits generate_climate_report (stateless raw HTTP through the load balancer), records the job id it was given,
 * then polls get_job_status until the job is over, and starts the next. Keeps polling its last job after the run
 * ends, until `drainUntil`.
 */
export async function jobSubmitter(context: ChaosContext, apiKey: string, jobs: ChaosJob[], drainUntil: () => number): Promise<void> {
  const url = `${context.baseUrl}/mcp`;
  const headers = apiKeyHeaders(apiKey);
  while (!context.stopped()) {
    const { value, outcome } = await context.tally.measure(
      'jobs',
      () => toolCall(url, 'generate_climate_report', { city: CITIES[jobs.length % CITIES.length], years: 2 }, headers),
      (answer) => classifyToolAnswer(answer, (envelope) => envelope.status === 'pending' && typeof envelope.data?.job_id === 'string'),
    );
    if (outcome.verdict !== 'ok') {
      await pause(outcome);
      continue;
    }
    const job: ChaosJob = { jobId: envelopeOfResult(value!.answer!.result).data.job_id, acceptedAt: Date.now() };
    jobs.push(job);
    await pollJob(context, url, headers, job, drainUntil);
  }
}

async function pollJob(
  context: ChaosContext,
  url: string,
  headers: Record<string, string>,
  job: ChaosJob,
  drainUntil: () => number,
): Promise<void> {
  while (Date.now() < drainUntil()) {
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
    const { value, outcome } = await context.tally.measure(
      'jobs',
      () => toolCall(url, 'get_job_status', { job_id: job.jobId }, headers),
      // Any state of the job is an answer; a final error envelope is confirmed below.
      (answer) => classifyToolAnswer(answer, (envelope) => envelope.status === 'pending' || envelope.status === 'success'),
    );
    const envelope = value?.answer?.result ? envelopeOfResult(value.answer.result) : undefined;
    if (envelope?.status === 'success') return settle(job, envelope);
    if (envelope?.status !== 'error') continue;
    if (envelope.error?.code === 'JOB_NOT_FOUND') {
      job.missing = true;
      return;
    }
    // An error envelope is the job's outcome (it ended in error) or the store being away right now (UNAVAILABLE):
    // the job's poll URL tells them apart, 200 with the envelope for the first, 503 for the second.
    const polled = await context.tally.measure(
      'jobs',
      async () => {
        const response = await fetch(`${url}/jobs/${job.jobId}`, { headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
        const text = await response.text();
        return { status: response.status, headers: response.headers, text, json: safeJson(text) };
      },
      (answer): ChaosOutcome =>
        answer.status === 200
          ? { verdict: 'ok', kind: 'poll-url' }
          : classifyToolAnswer({ status: answer.status, headers: answer.headers, text: answer.text }),
    );
    if (polled.value?.status === 200 && polled.value.json?.status === 'error') return settle(job, polled.value.json);
    if (outcome.verdict === 'failure') await pause(outcome);
  }
}

function settle(job: ChaosJob, envelope: any): void {
  job.final = envelope;
  job.finalAt = Date.now();
}

function safeJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** One idempotency key of an alert creator and what the server answered for it. */
export interface ChaosAlertKey {
  key: string;
  /** Every alert id a successful answer for this key carried (must be one, however many retries). */
  alertIds: Set<string>;
  attempts: number;
  /** Each attempt's outcome kind and when it ended (ms since the epoch). */
  answers: { kind: string; at: number }[];
}

/**
 * Creates alerts with create_weather_alert for one tenant, each with a fresh idempotency key, retrying a retryable
 * answer with the same key until it succeeds (within `drainUntil` once the run has ended).
 */
export async function alertCreator(context: ChaosContext, apiKey: string, keys: ChaosAlertKey[], drainUntil: () => number): Promise<void> {
  const url = `${context.baseUrl}/mcp`;
  const headers = apiKeyHeaders(apiKey);
  while (!context.stopped()) {
    const entry: ChaosAlertKey = { key: `chaos-${randomBytes(12).toString('hex')}`, alertIds: new Set(), attempts: 0, answers: [] };
    keys.push(entry);
    const args = {
      city: CITIES[keys.length % CITIES.length],
      threshold_celsius: keys.length % 50,
      priority: 'low',
      idempotency_key: entry.key,
    };
    while (Date.now() < drainUntil()) {
      entry.attempts += 1;
      const { value, outcome } = await context.tally.measure(
        'alerts',
        () => toolCall(url, 'create_weather_alert', args, headers),
        (answer) => classifyToolAnswer(answer),
      );
      entry.answers.push({ kind: outcome.kind, at: Date.now() });
      if (outcome.verdict === 'ok') {
        entry.alertIds.add(envelopeOfResult(value!.answer!.result).data.alert_id);
        break;
      }
      if (outcome.verdict === 'failure' && outcome.kind.startsWith('envelope-')) break; // refused for good: not retried
      await pause(outcome);
    }
    await pause();
  }
}

/** Every alert of the tenant behind `apiKey`, page by page (list_weather_alerts), read at the end. */
export async function listAlerts(baseUrl: string, apiKey: string): Promise<{ alert_id: string; created_at: string }[]> {
  const alerts: { alert_id: string; created_at: string }[] = [];
  let cursor: string | undefined;
  do {
    const answer = await toolCall(
      `${baseUrl}/mcp`,
      'list_weather_alerts',
      { limit: 100, ...(cursor && { cursor }) },
      apiKeyHeaders(apiKey),
    );
    const envelope = answer.answer?.result ? envelopeOfResult(answer.answer.result) : undefined;
    if (envelope?.status !== 'success') throw new Error(`list_weather_alerts answered ${answer.status} ${answer.text.slice(0, 300)}`);
    alerts.push(...envelope.data.alerts);
    cursor = envelope.data.nextCursor;
  } while (cursor);
  return alerts;
}
