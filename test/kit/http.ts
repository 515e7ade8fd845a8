/**
 * The one HTTP client of the tests: exact requests to the MCP endpoint over a real socket, one answer type (status,
 * headers, text, JSON, SSE items, JSON-RPC messages), JSON-RPC builders, and the checks the suites share.
 */
import { messagesOf, parseSseBody, type SseItem } from './sse.js';

/** Accept of a client that takes both answers (as the spec requires of Streamable HTTP clients). */
export const ACCEPT_BOTH = 'application/json, text/event-stream';

/** The latest revision of the session-based era. */
export const LATEST = '2025-11-25';

/** The headers a well-behaved Streamable HTTP client sends on a POST; `post()` sends them unless overridden. */
export const JSON_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'application/json',
  Accept: ACCEPT_BOTH,
};

/** The headers a simple HTTP client sends on every POST (JSON + SSE Accept, its API key as Bearer). */
export const SIMPLE_CLIENT_HEADERS: Readonly<Record<string, string>> = { ...JSON_HEADERS, Authorization: 'Bearer some-key' };

/** Header overrides: a value replaces the header of that name (any case); `undefined` removes it. */
export type HeaderOverrides = Record<string, string | undefined>;

/** A finished answer: status, headers, body text, and its JSON or SSE content. */
export interface HttpAnswer {
  status: number;
  headers: Headers;
  contentType: string;
  text: string;
  /** The parsed body, or `undefined` when it is empty or not JSON. */
  json: any;
  /** SSE items (text/event-stream), else []. */
  items: SseItem[];
  /** JSON-RPC messages of the SSE stream, or `[json]` for a JSON answer. */
  messages: any[];
}

/** `base` with `overrides` applied (names compared case-insensitively; `undefined` removes a header). */
export function withHeaders(base: Readonly<Record<string, string>>, overrides: HeaderOverrides = {}): Record<string, string> {
  const headers: Record<string, string | undefined> = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    for (const existing of Object.keys(headers)) if (existing.toLowerCase() === key.toLowerCase()) delete headers[existing];
    headers[key] = value;
  }
  return Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** The headers of a request in session `sessionId` (and, when given, of revision `protocolVersion`). */
export function sessionHeaders(sessionId: string | undefined, protocolVersion?: string): HeaderOverrides {
  return { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': protocolVersion };
}

/** A body as fetch sends it: strings, bytes and streams as they are, anything else JSON-encoded. */
const encode = (body: unknown) =>
  (typeof body === 'string' ||
  body instanceof Uint8Array ||
  body instanceof ArrayBuffer ||
  body instanceof ReadableStream ||
  body instanceof Blob
    ? body
    : JSON.stringify(body)) as RequestInit['body'];

/** POSTs `body` (an object is JSON-encoded; a string or bytes are sent as is); the raw Response, body unread. */
export function postStream(url: string, body: unknown, headers: HeaderOverrides = {}, signal?: AbortSignal): Promise<Response> {
  return fetch(url, { method: 'POST', headers: withHeaders(JSON_HEADERS, headers), body: encode(body), signal });
}

/** POSTs `body` with the JSON headers plus `headers`, and reads the whole answer. */
export async function post(url: string, body: unknown, headers: HeaderOverrides = {}, signal?: AbortSignal): Promise<HttpAnswer> {
  return toAnswer(await postStream(url, body, headers, signal));
}

/** Any request with exactly these headers (a body object is JSON-encoded), read whole. */
export async function send(url: string, init: Omit<RequestInit, 'body'> & { body?: unknown }): Promise<HttpAnswer> {
  return toAnswer(await fetch(url, { ...init, body: init.body === undefined ? undefined : encode(init.body) }));
}

/** Reads a Response whole: JSON bodies parsed, SSE bodies split into items and messages. */
export async function toAnswer(response: Response): Promise<HttpAnswer> {
  const text = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  const items = contentType.includes('text/event-stream') ? parseSseBody(text) : [];
  return {
    status: response.status,
    headers: response.headers,
    contentType,
    text,
    json,
    items,
    messages: json !== undefined ? [json] : messagesOf(items),
  };
}

/** A JSON-RPC request object. */
export function rpc(id: string | number, method: string, params?: Record<string, unknown>): Record<string, unknown> {
  return params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
}

/** A JSON-RPC notification object. */
export function notification(method: string, params?: Record<string, unknown>): Record<string, unknown> {
  return params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
}

/** A `tools/call` request. */
export function callTool(id: string | number, name: string, args: Record<string, unknown> = {}): Record<string, unknown> {
  return rpc(id, 'tools/call', { name, arguments: args });
}

/** The params of an `initialize` request. */
export function initializeParams(protocolVersion = LATEST): Record<string, unknown> {
  return { protocolVersion, capabilities: {}, clientInfo: { name: 'nest-mcp-e2e', version: '1.0.0' } };
}

/** An `initialize` request. */
export function initializeRequest(id: string | number = 1, protocolVersion = LATEST): Record<string, unknown> {
  return rpc(id, 'initialize', initializeParams(protocolVersion));
}

/**
 * Opens a Streamable HTTP session: initialize (the answer must carry Mcp-Session-Id) then notifications/initialized
 * (which must be accepted with 202). `headers` go on both (credentials, Origin).
 */
export async function openSession(
  url: string,
  options: { protocolVersion?: string; headers?: HeaderOverrides } = {},
): Promise<{ sessionId: string; result: any }> {
  const protocolVersion = options.protocolVersion ?? LATEST;
  const init = await post(url, initializeRequest(1, protocolVersion), options.headers);
  const sessionId = init.headers.get('mcp-session-id');
  if (init.status !== 200 || !sessionId) throw new Error(`initialize failed: ${init.status} ${init.text}`);
  const initialized = await post(url, notification('notifications/initialized'), {
    ...options.headers,
    ...sessionHeaders(sessionId, protocolVersion),
  });
  if (initialized.status !== 202) throw new Error(`notifications/initialized: ${initialized.status} ${initialized.text}`);
  return { sessionId, result: (init.json ?? init.messages[0])?.result };
}

/** The JSON-RPC response among the messages of an answer (the last one). */
export function responseOf(answer: HttpAnswer): any {
  return [...answer.messages]
    .reverse()
    .find((message) => typeof message === 'object' && message !== null && ('result' in message || 'error' in message));
}

/** A `tools/call` result: `content` and, for an envelope, `structuredContent`. */
export interface ToolCallResult {
  content: { type: string; text?: string }[];
  structuredContent?: unknown;
}

/**
 * The envelope of a tools/call result (or of the answer carrying one): `content[0].text` parsed, which must equal
 * `structuredContent` when the result has both.
 */
export function envelopeOf(of: ToolCallResult | HttpAnswer): any {
  const result: ToolCallResult | undefined = 'messages' in of ? (of.json?.result ?? responseOf(of)?.result) : of;
  if (!result)
    throw new Error(`not a tools/call result: ${'messages' in of ? `${of.status} ${of.text.slice(0, 2_000)}` : JSON.stringify(of)}`);
  const first = result.content?.[0];
  const parsed = first?.type === 'text' && typeof first.text === 'string' ? JSON.parse(first.text) : undefined;
  if (result.structuredContent === undefined) {
    if (parsed === undefined) throw new Error(`content[0] is not text: ${JSON.stringify(first)}`);
    return parsed;
  }
  if (parsed !== undefined) expect(parsed).toEqual(result.structuredContent);
  return result.structuredContent;
}

/** Tool names of a tools/list answer, sorted. */
export function toolNames(answer: HttpAnswer): string[] {
  const tools = (answer.json?.result ?? responseOf(answer)?.result)?.tools;
  if (!Array.isArray(tools)) throw new Error(`not a tools/list result: ${answer.status} ${answer.text}`);
  return tools.map((tool: { name: string }) => tool.name).sort();
}

/**
 * Anything that looks like a leaked stack trace or server path: `at fn (file:1:2)` lines, `.ts:12` positions,
 * absolute paths of this checkout or node_modules.
 */
export const STACK_TRACE_PATTERN = /(^|\n|\\n)\s*at\s+\S+.*(\(|:\d+)|\.[cm]?[jt]s:\d+|\/work\/|node_modules|[A-Za-z]:\\\\/;

/** Asserts the answer (body and every header) reveals none of `secrets` and no stack trace. */
export function expectNoLeak(answer: HttpAnswer, secrets: string[]): void {
  const headerText = [...answer.headers.entries()].map(([name, value]) => `${name}: ${value}`).join('\n');
  for (const secret of secrets.filter((value) => value.length > 0)) {
    expect(answer.text).not.toContain(secret);
    expect(headerText).not.toContain(secret);
  }
  expect(answer.text).not.toMatch(STACK_TRACE_PATTERN);
  expect(answer.text).not.toMatch(/"stack"/);
}

/** Asserts a well-formed JSON-RPC 2.0 response object (id, exactly one of result/error, integer error code). */
export function assertJsonRpcResponse(message: unknown): void {
  if (typeof message !== 'object' || message === null || Array.isArray(message))
    throw new Error(`not a JSON-RPC response object: ${JSON.stringify(message)}`);
  const value = message as Record<string, unknown>;
  if (value.jsonrpc !== '2.0') throw new Error(`jsonrpc is not "2.0": ${JSON.stringify(message)}`);
  if (!('id' in value)) throw new Error(`no id: ${JSON.stringify(message)}`);
  if (!(value.id === null || typeof value.id === 'string' || (typeof value.id === 'number' && Number.isFinite(value.id)))) {
    throw new Error(`bad id: ${JSON.stringify(message)}`);
  }
  const hasResult = 'result' in value;
  const hasError = 'error' in value;
  if (hasResult === hasError) throw new Error(`must have exactly one of result/error: ${JSON.stringify(message)}`);
  if (hasResult && (typeof value.result !== 'object' || value.result === null || Array.isArray(value.result))) {
    throw new Error(`result is not an object: ${JSON.stringify(message)}`);
  }
  if (hasError) {
    const error = value.error as Record<string, unknown> | null;
    if (typeof error !== 'object' || error === null || !Number.isInteger(error.code) || typeof error.message !== 'string') {
      throw new Error(`malformed error object: ${JSON.stringify(message)}`);
    }
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
