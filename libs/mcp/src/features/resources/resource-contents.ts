import { isPlainObject } from '../../core/plain-object.js';
/** One entry of a `resources/read` result: text or base64 binary, for the URI read or a sub-resource of it. @publicApi */
export type McpResourceContents =
  | { uri: string; mimeType?: string; text: string; _meta?: Record<string, unknown> }
  | { uri: string; mimeType?: string; blob: string; _meta?: Record<string, unknown> };

/** @publicApi */
export interface McpReadResourceResult {
  contents: McpResourceContents[];
}

/**
 * What a resource method may return: text, bytes (sent as a base64 `blob`), or explicit contents. In explicit
 * contents a missing `mimeType` is taken from the decorator, and a `blob` may be given as bytes.
 * @publicApi
 */
export type McpResourceValue =
  | string
  | Uint8Array
  | { contents: Array<McpResourceContents | { uri: string; mimeType?: string; blob: Uint8Array; _meta?: Record<string, unknown> }> };

/**
 * Turns a resource method's return value into the `resources/read` result, or undefined when the value is
 * none of the accepted shapes (a programming error the caller reports).
 */
export function toReadResourceResult(value: unknown, uri: string, mimeType: string | undefined): McpReadResourceResult | undefined {
  const withType = mimeType === undefined ? {} : { mimeType };
  if (typeof value === 'string') return { contents: [{ uri, ...withType, text: value }] };
  // Buffer is a Uint8Array.
  if (value instanceof Uint8Array) return { contents: [{ uri, ...withType, blob: Buffer.from(value).toString('base64') }] };
  if (!isPlainObject(value) || !Array.isArray(value.contents)) return undefined;
  const contents: McpResourceContents[] = [];
  for (const entry of value.contents) {
    const normalised = normaliseEntry(entry, mimeType);
    if (!normalised) return undefined;
    contents.push(normalised);
  }
  return { contents };
}

function normaliseEntry(entry: unknown, mimeType: string | undefined): McpResourceContents | undefined {
  if (!isPlainObject(entry) || typeof entry.uri !== 'string' || entry.uri === '') return undefined;
  if (entry.mimeType !== undefined && typeof entry.mimeType !== 'string') return undefined;
  const hasText = 'text' in entry && entry.text !== undefined;
  const hasBlob = 'blob' in entry && entry.blob !== undefined;
  if (hasText === hasBlob) return undefined; // exactly one of them (the schema's two variants)
  const base = { ...entry, mimeType: entry.mimeType ?? mimeType };
  if (base.mimeType === undefined) delete base.mimeType;
  if (hasText) return typeof entry.text === 'string' ? (base as McpResourceContents) : undefined;
  if (entry.blob instanceof Uint8Array) return { ...base, blob: Buffer.from(entry.blob).toString('base64') } as McpResourceContents;
  return typeof entry.blob === 'string' ? (base as McpResourceContents) : undefined;
}
