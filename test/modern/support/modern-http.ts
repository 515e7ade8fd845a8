import { mcpFetch, mcpPost, type PostResult } from '../../fixtures/mcp-http.js';
import { SseReader } from '../../fixtures/sse.js';
import { encodeHeaderValue, mcpNameSource } from '../../../libs/mcp/src/eras/rev-2026-07-28/header-values.js';
import { expectWireValid } from './wire-schema.js';

export const MODERN = '2026-07-28';

/** The `_meta` envelope of a 2026-07-28 request. */
export function envelope(capabilities: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'modern-e2e', version: '1.0.0' },
    ...extra,
  };
}

export interface ModernCallOptions {
  capabilities?: Record<string, unknown>;
  /** Extra `_meta` keys (logLevel, progressToken...). */
  meta?: Record<string, unknown>;
  /** Header overrides; `undefined` values remove a header the helper would send. */
  headers?: Record<string, string | undefined>;
  accept?: string;
}

/** The headers a conforming 2026-07-28 client sends for `method` with `params`. */
export function modernHeaders(method: string, params: Record<string, unknown>, overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const headers: Record<string, string | undefined> = { 'MCP-Protocol-Version': MODERN, 'Mcp-Method': method };
  const name = mcpNameSource(method, params)?.value;
  if (name !== undefined) headers['Mcp-Name'] = encodeHeaderValue(name);
  for (const [key, value] of Object.entries(overrides)) {
    for (const existing of Object.keys(headers)) if (existing.toLowerCase() === key.toLowerCase()) delete headers[existing];
    headers[key] = value;
  }
  return Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** POSTs one 2026-07-28 request with its envelope and headers; checks every message against the 2026 schema. */
export async function modernCall(url: string, id: string | number, method: string, params: Record<string, unknown> = {}, options: ModernCallOptions = {}): Promise<PostResult> {
  const body = { jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope(options.capabilities, options.meta) } };
  const result = await mcpPost(url, body, { accept: options.accept, headers: modernHeaders(method, params, options.headers) });
  expectWireValid(result.messages, method);
  return result;
}

/** The JSON-RPC response among the messages of an answer (the last one). */
export function responseOf(result: PostResult): any {
  return [...result.messages].reverse().find((message) => 'result' in message || 'error' in message);
}

/** Opens a `subscriptions/listen` stream; read it with the returned reader, end it with `cancel()`. */
export async function openListen(url: string, id: string | number, notifications: Record<string, unknown>, capabilities: Record<string, unknown> = {}): Promise<{ response: Response; reader: SseReader }> {
  const params = { notifications, _meta: envelope(capabilities) };
  const response = await mcpFetch(url, { jsonrpc: '2.0', id, method: 'subscriptions/listen', params }, { headers: modernHeaders('subscriptions/listen', params) });
  return { response, reader: new SseReader(response) };
}

/** The next JSON-RPC message of an SSE reader (comments skipped). */
export async function nextMessage(reader: SseReader, timeoutMs = 5_000): Promise<any> {
  const event = await reader.nextEvent(timeoutMs);
  return event?.data === undefined ? undefined : JSON.parse(event.data);
}
