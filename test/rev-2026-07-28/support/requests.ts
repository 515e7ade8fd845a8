import { mcpNameSource } from '../../../libs/mcp/src/eras/rev-2026-07-28/http/header-values.js';
import { encodeHeaderValue } from '../../../libs/mcp/src/client/eras/rev-2026-07-28.wire.js';
import { expectWireValid } from './wire-schema.js';
import { type HeaderOverrides, type HttpAnswer, post, postStream, withHeaders } from '../../kit/http.js';
import { SseReader } from '../../kit/sse.js';

/** Requests of revision 2026-07-28 (stateless: a `_meta` envelope and headers on every request, no session). */
export const REV_2026_07_28 = '2026-07-28';

/** The `_meta` envelope of a 2026-07-28 request. */
export function envelope(capabilities: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': REV_2026_07_28,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'rev-2026-07-28-e2e', version: '1.0.0' },
    ...extra,
  };
}

export interface Call2026Options {
  capabilities?: Record<string, unknown>;
  /** Extra `_meta` keys (logLevel, progressToken...). */
  meta?: Record<string, unknown>;
  /** Header overrides; `undefined` values remove a header the helper would send. */
  headers?: HeaderOverrides;
  accept?: string;
}

/** The headers a conforming 2026-07-28 client sends for `method` with `params`. */
export function headers2026(method: string, params: Record<string, unknown>, overrides: HeaderOverrides = {}): Record<string, string> {
  const name = mcpNameSource(method, params)?.value;
  const base = {
    'MCP-Protocol-Version': REV_2026_07_28,
    'Mcp-Method': method,
    ...(name !== undefined && { 'Mcp-Name': encodeHeaderValue(name) }),
  };
  return withHeaders(base, overrides);
}

/** POSTs one 2026-07-28 request with its envelope and headers; checks every message against the 2026 schema. */
export async function call2026(
  url: string,
  id: string | number,
  method: string,
  params: Record<string, unknown> = {},
  options: Call2026Options = {},
): Promise<HttpAnswer> {
  const body = { jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope(options.capabilities, options.meta) } };
  const result = await post(url, body, {
    ...(options.accept !== undefined && { Accept: options.accept }),
    ...headers2026(method, params, options.headers),
  });
  expectWireValid(result.messages, method);
  return result;
}

/** Opens a `subscriptions/listen` stream; read it with the returned reader, end it with `cancel()`. */
export async function openListen(
  url: string,
  id: string | number,
  notifications: Record<string, unknown>,
  capabilities: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<{ response: Response; reader: SseReader }> {
  const params = { notifications, _meta: envelope(capabilities) };
  const response = await postStream(
    url,
    { jsonrpc: '2.0', id, method: 'subscriptions/listen', params },
    { ...headers2026('subscriptions/listen', params), ...headers },
  );
  return { response, reader: new SseReader(response) };
}
