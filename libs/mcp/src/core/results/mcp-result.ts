import type { McpCallToolResult, McpContentBlock } from './content.types.js';
import type { McpEnvelope, McpErrorBody, McpErrorEnvelope, McpPendingEnvelope, McpSuccessEnvelope } from './envelope.types.js';
import { errorBody, type McpToolErrorOptions } from '../errors/mcp-tool.error.js';

/** A tool return value that is already an envelope: sent as is instead of being wrapped in `success`. */
export class McpEnvelopeResult {
  constructor(readonly envelope: McpEnvelope) {}
}

/** A tool return value that is a raw MCP `CallToolResult`: sent untouched (no envelope). */
export class McpRawResult {
  constructor(readonly result: McpCallToolResult) {}
}

/**
 * Builders for explicit tool results. A plain return value is already `success`; use these for the other
 * envelopes or to send raw MCP content.
 * @publicApi
 * @example return McpResult.error('CITY_NOT_FOUND', 'Unknown city', { retryable: false });
 */
export const McpResult = {
  success<T>(data: T): McpEnvelopeResult {
    return new McpEnvelopeResult({ status: 'success', data } satisfies McpSuccessEnvelope<T>);
  },
  error(code: string, message: string, options: McpToolErrorOptions = {}): McpEnvelopeResult {
    return new McpEnvelopeResult({ status: 'error', error: errorBody(code, message, options) } satisfies McpErrorEnvelope);
  },
  pending(data: McpPendingEnvelope['data']): McpEnvelopeResult {
    return new McpEnvelopeResult({ status: 'pending', data });
  },
  /** Escape hatch: images, audio, resource links... exactly as given. */
  raw(result: McpCallToolResult): McpRawResult {
    return new McpRawResult(result);
  },
} as const;

/**
 * Content block builders for `McpResult.raw()`.
 * @publicApi
 */
export const McpContent = {
  text: (text: string): McpContentBlock => ({ type: 'text', text }),
  image: (data: string | Uint8Array, mimeType: string): McpContentBlock => ({ type: 'image', data: toBase64(data), mimeType }),
  audio: (data: string | Uint8Array, mimeType: string): McpContentBlock => ({ type: 'audio', data: toBase64(data), mimeType }),
  resourceLink: (link: Omit<Extract<McpContentBlock, { type: 'resource_link' }>, 'type'>): McpContentBlock => ({
    type: 'resource_link',
    ...link,
  }),
  resource: (resource: Extract<McpContentBlock, { type: 'resource' }>['resource']): McpContentBlock => ({
    type: 'resource',
    resource,
  }),
} as const;

/** Strings are taken as already base64; bytes are encoded. */
function toBase64(data: string | Uint8Array): string {
  return typeof data === 'string' ? data : Buffer.from(data).toString('base64');
}

/** The wire result for an envelope: JSON text in `content[0]` and the same object as `structuredContent`. */
export function envelopeToCallToolResult(envelope: McpEnvelope): McpCallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(envelope) }],
    structuredContent: envelope as unknown as Record<string, unknown>,
    isError: envelope.status === 'error',
  };
}

/** The wire result of an `error` envelope (`isError: true`): how every refusal of the pipeline answers. */
export function errorResult(error: McpErrorBody): McpCallToolResult {
  return envelopeToCallToolResult({ status: 'error', error });
}
