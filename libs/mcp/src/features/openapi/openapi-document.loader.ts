import { readFile } from 'node:fs/promises';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import type { McpOpenApiSource } from '../../options/mcp-openapi-options.interface.js';
import { BodyTooLargeError, readBoundedText } from '../../core/bounded-text.js';
import { McpOpenApiMessages } from './openapi.messages.js';
import { fetchWithinOrigin, RedirectNotFollowed } from './openapi-redirects.js';
import type { OpenApiParser } from './openapi-parser.loader.js';

/** A document fetched at boot may take this long and be this large. */
const DOCUMENT_TIMEOUT_MS = 10_000;
const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;
/** How many of the validator's complaints a boot error quotes. */
const QUOTED_PROBLEMS = 3;

/** An OpenAPI 3.1 document (its `$ref`s are followed, bounded, as its operations become tools), and where it came from. */
export interface LoadedOpenApiDocument {
  readonly document: Record<string, unknown>;
  /** The document's URL when it was fetched from one (its origin is the default base URL). */
  readonly url?: string;
}

/** How messages name a source: its `name`, and the URL or path it was read from. */
export function sourceLabel(source: Pick<McpOpenApiSource, 'name' | 'document'>): string {
  const where =
    typeof source.document === 'string' ? source.document : typeof source.document === 'function' ? '(a function)' : '(an object)';
  return source.name === undefined ? where : `"${source.name}" ${where}`;
}

/**
 * Reads a source's document (a URL, a file, an object or a function), upgrades it to OpenAPI 3.1 (3.0's `nullable`
 * becomes a `null` type, `example` becomes `examples`) and validates it. An unreadable document or an invalid one
 * fails the boot with a coded error naming the source.
 */
export async function loadOpenApiDocument(source: McpOpenApiSource, parser: OpenApiParser): Promise<LoadedOpenApiDocument> {
  const label = sourceLabel(source);
  const { raw, url } = await readRaw(source.document, label);
  let specification: Record<string, unknown> | null | undefined;
  try {
    specification = parser.upgrade(raw).specification;
  } catch (error) {
    throw invalid(label, error instanceof Error ? error.message : String(error));
  }
  if (!specification || typeof specification.openapi !== 'string' || !specification.openapi.startsWith('3.')) {
    throw invalid(label, 'it has no "openapi": "3.x" version');
  }
  const validation = await parser.validate(specification);
  if (!validation.valid) {
    const problems = (validation.errors ?? [])
      .slice(0, QUOTED_PROBLEMS)
      .map((error) => (error.path ? `${error.path}: ${error.message}` : error.message));
    throw invalid(label, problems.join('; ') || 'the validator refused it');
  }
  return { document: specification, ...(url !== undefined && { url }) };
}

const invalid = (label: string, reason: string) => new McpConfigurationError(McpOpenApiMessages.invalid(label, reason));
const unreachable = (label: string, reason: string) => new McpConfigurationError(McpOpenApiMessages.unreachable(label, reason));

/**
 * The document as text, which the parser reads itself: a copy it may change, of plain JSON (a document object may
 * carry more), built in the parser's own realm (its object checks refuse objects of another, as under Jest's VM).
 */
async function readRaw(document: McpOpenApiSource['document'], label: string): Promise<{ raw: string; url?: string }> {
  if (typeof document === 'function') return { raw: JSON.stringify(await document()) };
  if (typeof document === 'object' && document !== null) return { raw: JSON.stringify(document) };
  if (typeof document !== 'string') throw invalid(label, 'document must be a URL, a file path, an object or a function');
  if (/^https?:\/\//i.test(document)) return fetchDocument(document, label);
  try {
    return { raw: await readFile(document, 'utf8') };
  } catch (error) {
    throw unreachable(label, (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String((error as Error).message));
  }
}

/** The document's text, and the URL that served it (the same origin: redirects are followed only within it). */
async function fetchDocument(url: string, label: string): Promise<{ raw: string; url: string }> {
  let response: Response;
  let served: URL;
  try {
    ({ response, url: served } = await fetchWithinOrigin(new URL(url), {
      headers: { accept: 'application/json, application/yaml;q=0.9, */*;q=0.5' },
      signal: AbortSignal.timeout(DOCUMENT_TIMEOUT_MS),
    }));
  } catch (error) {
    if (error instanceof RedirectNotFollowed) throw new McpConfigurationError(McpOpenApiMessages.redirect(label, redirectReason(error)));
    const timedOut = (error as Error).name === 'TimeoutError';
    throw unreachable(label, timedOut ? `no answer within ${DOCUMENT_TIMEOUT_MS} ms` : 'the connection failed');
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw unreachable(label, `HTTP ${response.status}`);
  }
  try {
    return { raw: await readBoundedText(response.body, MAX_DOCUMENT_BYTES, response.headers.get('content-length')), url: served.href };
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw unreachable(label, `it is larger than ${MAX_DOCUMENT_BYTES} bytes`);
    throw unreachable(label, 'the connection failed while reading it');
  }
}

function redirectReason({ status, to, why }: RedirectNotFollowed): string {
  if (why === 'another origin')
    return `it redirects (HTTP ${status}) to another origin (${to.origin}), which is not followed: the document's origin decides where its calls go`;
  return why === 'a redirect loop'
    ? `it redirects (HTTP ${status}) back to ${to.href}: a redirect loop`
    : `it redirects ${why}: a redirect loop`;
}
