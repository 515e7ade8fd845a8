import { LOAD_BALANCER_REFUSAL_HEADER } from '../kit/nginx.js';

/** The client kinds of the chaos test. */
export type ChaosClientKind = 'sdk-http' | 'sdk-sse' | 'jobs' | 'alerts';

/**
 * What one request ended with. `ok`: a result. `retryable`: an answer the client is told to retry (503, an envelope or
 * JSON-RPC error marked retryable, a 404 for a session that asks it to re-initialize, a stream that closed under a
 * pending request, so the client knew at once). `failure`: anything else — a 5xx other than 503, a non-retryable
 * error, a request left without an answer until the client's timeout.
 */
export type ChaosVerdict = 'ok' | 'retryable' | 'failure';

export interface ChaosOutcome {
  verdict: ChaosVerdict;
  /** Short and bounded, e.g. `http-503-app`, `envelope-UNAVAILABLE`, `session-404`, `timeout`. */
  kind: string;
  /** For failures: what was seen (status, body excerpt, error message). */
  detail?: string;
}

interface Sample {
  client: ChaosClientKind;
  startedAt: number;
  endedAt: number;
  outcome: ChaosOutcome;
}

const MAX_EXAMPLES = 8;

/** Every request of the run with its outcome, and the figures drawn from them. */
export class ChaosTally {
  readonly samples: Sample[] = [];
  /** Times in examples are printed relative to this (the start of the run). */
  origin = Date.now();

  record(client: ChaosClientKind, startedAt: number, outcome: ChaosOutcome): ChaosOutcome {
    this.samples.push({ client, startedAt, endedAt: Date.now(), outcome });
    return outcome;
  }

  /** Runs `request`, classifies what it ended with (`classify` for a value, {@link classifyError} for a throw) and records it. */
  async measure<T>(
    client: ChaosClientKind,
    request: () => Promise<T>,
    classify: (value: T) => ChaosOutcome,
  ): Promise<{ value?: T; outcome: ChaosOutcome }> {
    const startedAt = Date.now();
    try {
      const value = await request();
      return { value, outcome: this.record(client, startedAt, classify(value)) };
    } catch (error) {
      return { outcome: this.record(client, startedAt, classifyError(error)) };
    }
  }

  count(filter: (sample: Sample) => boolean = () => true): number {
    return this.samples.filter(filter).length;
  }

  /** `{ client: { "verdict kind": n } }`, for the printed figures. */
  byKind(): Record<string, Record<string, number>> {
    const table: Record<string, Record<string, number>> = {};
    for (const { client, outcome } of this.samples) {
      const row = (table[client] ??= {});
      const key = `${outcome.verdict} ${outcome.kind}`;
      row[key] = (row[key] ?? 0) + 1;
    }
    return table;
  }

  /** The longest time a request of each client took to be answered (whatever the answer), in ms. */
  slowestMs(): Record<string, number> {
    const slowest: Record<string, number> = {};
    for (const { client, startedAt, endedAt } of this.samples) slowest[client] = Math.max(slowest[client] ?? 0, endedAt - startedAt);
    return slowest;
  }

  failures(): Sample[] {
    return this.samples.filter((sample) => sample.outcome.verdict === 'failure');
  }

  /** The first of each client and kind of answer that was not `ok`: when (since the start) and what it said. */
  examplesByKind(): Record<string, string> {
    const examples: Record<string, string> = {};
    for (const { client, startedAt, outcome } of this.samples) {
      const key = `${client} ${outcome.verdict} ${outcome.kind}`;
      if (outcome.verdict !== 'ok' && !(key in examples)) examples[key] = `+${startedAt - this.origin}ms ${outcome.detail ?? ''}`.trim();
    }
    return examples;
  }

  failureExamples(): string[] {
    return this.failures()
      .slice(0, MAX_EXAMPLES)
      .map((sample) =>
        `${sample.client} +${sample.startedAt - this.origin}ms: ${sample.outcome.kind} ${sample.outcome.detail ?? ''}`.trim(),
      );
  }

  /**
   * How long after `at` the clients of `kinds` served again: for each kind, the end of its first `ok` request that
   * started after `at`; the slowest kind's figure, in ms (undefined when some kind never succeeded again).
   */
  recoveryMs(at: number, kinds: ChaosClientKind[]): { ms?: number; perKind: Record<string, number | undefined> } {
    const perKind: Record<string, number | undefined> = {};
    for (const kind of kinds) {
      const first = this.samples
        .filter((sample) => sample.client === kind && sample.outcome.verdict === 'ok' && sample.startedAt >= at)
        .sort((a, b) => a.endedAt - b.endedAt)[0];
      perKind[kind] = first ? first.endedAt - at : undefined;
    }
    const values = Object.values(perKind);
    return { ms: values.some((value) => value === undefined) ? undefined : Math.max(...(values as number[])), perKind };
  }

  /** The requests that started in [from, to) and did not end `ok`, by client and kind. */
  errorsBetween(from: number, to: number): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const sample of this.samples) {
      if (sample.startedAt < from || sample.startedAt >= to || sample.outcome.verdict === 'ok') continue;
      const key = `${sample.client} ${sample.outcome.kind}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return counts;
  }
}

/** A raw HTTP answer to a `tools/call`: the status, the nginx mark, and the JSON-RPC answer with its envelope. */
export interface ToolCallAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The JSON-RPC response (from a JSON body or the last SSE message). */
  answer?: { result?: any; error?: { code: number; message: string; data?: any } };
}

/** Classifies a tool call's HTTP answer; `okEnvelope` decides which success envelopes count as `ok` (default: `success`). */
export function classifyToolAnswer(answer: ToolCallAnswer, okEnvelope: (envelope: any) => boolean = isSuccess): ChaosOutcome {
  if (answer.status === 503) {
    const fromBalancer = answer.headers.get(LOAD_BALANCER_REFUSAL_HEADER) !== null;
    return { verdict: 'retryable', kind: fromBalancer ? 'http-503-balancer' : 'http-503-app', detail: answer.text.slice(0, 200) };
  }
  if (answer.status >= 500) return { verdict: 'failure', kind: `http-${answer.status}`, detail: answer.text.slice(0, 300) };
  if (answer.status !== 200 || !answer.answer)
    return { verdict: 'failure', kind: `http-${answer.status}`, detail: answer.text.slice(0, 300) };
  if (answer.answer.error) {
    const outcome = classifyJsonRpcError(answer.answer.error);
    return { ...outcome, detail: `HTTP ${answer.status}: ${outcome.detail ?? ''}` };
  }
  return classifyResult(answer.answer.result, okEnvelope);
}

/** A `CallToolResult`: its envelope (`structuredContent`, else the JSON text of `content[0]`). */
export function envelopeOfResult(result: any): any {
  if (result?.structuredContent) return result.structuredContent;
  const text = result?.content?.[0]?.text;
  try {
    return typeof text === 'string' ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

export function classifyResult(result: any, okEnvelope: (envelope: any) => boolean = isSuccess): ChaosOutcome {
  const envelope = envelopeOfResult(result);
  if (envelope && okEnvelope(envelope)) return { verdict: 'ok', kind: 'result' };
  if (envelope?.status === 'error') {
    const code = String(envelope.error?.code ?? 'UNKNOWN');
    return envelope.error?.retryable === true
      ? { verdict: 'retryable', kind: `envelope-${code}`, detail: String(envelope.error?.message ?? '').slice(0, 200) }
      : { verdict: 'failure', kind: `envelope-${code}`, detail: String(envelope.error?.message ?? '').slice(0, 300) };
  }
  return { verdict: 'failure', kind: 'unexpected-result', detail: JSON.stringify(result).slice(0, 300) };
}

function classifyJsonRpcError(error: { code: number; message: string; data?: any }): ChaosOutcome {
  const retryable = error.data?.retryable === true || error.data?.error?.retryable === true;
  return retryable
    ? { verdict: 'retryable', kind: `jsonrpc-error${error.code}`, detail: error.message.slice(0, 200) }
    : { verdict: 'failure', kind: `jsonrpc-error${error.code}`, detail: error.message.slice(0, 300) };
}

const isSuccess = (envelope: any) => envelope?.status === 'success';

/**
 * What an SDK client's or fetch's throw means. The SDK's Streamable HTTP transport throws `StreamableHTTPError`
 * with the HTTP status in `code`; its SSE transport an `Error POSTing to endpoint (HTTP <status>)`; a closed
 * transport rejects pending requests with -32000 "Connection closed"; a request without answer -32001.
 */
export function classifyError(error: unknown): ChaosOutcome {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown })?.code;
  const status = typeof code === 'number' && code >= 100 && code < 600 ? code : Number(/\(HTTP (\d{3})\)/.exec(message)?.[1] ?? NaN);
  // The SDK keeps the body in the message: nginx's own refusal names the upstream.
  if (status === 503)
    return {
      verdict: 'retryable',
      kind: /upstream server is unavailable/.test(message) ? 'http-503-balancer' : 'http-503-app',
      detail: message.slice(0, 200),
    };
  if (status === 404) return { verdict: 'retryable', kind: 'session-404', detail: message.slice(0, 200) };
  if (Number.isFinite(status)) return { verdict: 'failure', kind: `http-${status}`, detail: message.slice(0, 300) };
  if (code === -32001 || /timed out|timeout/i.test(message)) return { verdict: 'failure', kind: 'timeout', detail: message.slice(0, 300) };
  if (code === -32000 && /connection closed/i.test(message))
    return { verdict: 'retryable', kind: 'connection-closed', detail: message.slice(0, 200) };
  if (typeof code === 'number') return classifyJsonRpcError({ code, message, data: (error as { data?: unknown }).data });
  return { verdict: 'failure', kind: 'thrown', detail: message.slice(0, 300) };
}
