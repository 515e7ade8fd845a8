/** Minimal raw HTTP client for the MCP endpoint: exact bytes in, status/headers/text out. */

/** The headers a simple HTTP client sends on every POST (JSON + SSE Accept, its API key as Bearer). */
export const SIMPLE_CLIENT_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
  Authorization: 'Bearer some-key',
};

export interface RawResponse {
  status: number;
  headers: Headers;
  contentType: string;
  text: string;
  /** The parsed body, or `undefined` when it is empty or not JSON. */
  json: any;
}

export async function rawPost(url: string, body: unknown, headers: Record<string, string> = SIMPLE_CLIENT_HEADERS): Promise<RawResponse> {
  const payload = typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body);
  return toRaw(await fetch(url, { method: 'POST', headers, body: payload }));
}

export async function rawRequest(url: string, init: RequestInit): Promise<RawResponse> {
  return toRaw(await fetch(url, init));
}

async function toRaw(response: Response): Promise<RawResponse> {
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, contentType: response.headers.get('content-type') ?? '', text, json };
}

/** A JSON-RPC request object. */
export function rpc(id: string | number, method: string, params?: Record<string, unknown>): Record<string, unknown> {
  return params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
}

/** Parses `content[0].text` of a tools/call result. */
export function envelopeText(result: { content: { type: string; text?: string }[] }): unknown {
  const first = result.content[0];
  if (first?.type !== 'text' || typeof first.text !== 'string') throw new Error(`content[0] is not text: ${JSON.stringify(first)}`);
  return JSON.parse(first.text);
}

export interface SseOpening {
  status: number;
  contentType: string;
  /** The first complete SSE event (up to the blank line), or the whole body for a non-SSE answer. */
  firstEvent: string;
}

/**
 * GETs a URL and reads only up to the first SSE event, then aborts: a stream that stays open cannot hang the
 * test. Gives up after `timeoutMs`.
 */
export async function openSse(url: string, headers: Record<string, string>, timeoutMs = 5_000): Promise<SseOpening> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  try {
    const response = await fetch(url, { method: 'GET', headers, signal: controller.signal });
    const contentType = response.headers.get('content-type') ?? '';
    if (!contentType.startsWith('text/event-stream')) return { status: response.status, contentType, firstEvent: await response.text() };
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!/\r?\n\r?\n/.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    return { status: response.status, contentType, firstEvent: text.split(/\r?\n\r?\n/)[0] };
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}
