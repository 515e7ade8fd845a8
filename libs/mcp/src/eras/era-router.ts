import { clientText } from '../core/client-text.js';
import { classifyMessage } from '../core/json-rpc/json-rpc.codec.js';
import type { JsonRpcId, JsonRpcNotification, JsonRpcRequest } from '../core/json-rpc/json-rpc.types.js';
import { hasVersionClaim, isPlainObject, missingEnvelopeKeys, readEnvelope, type McpModernEnvelope } from './rev-2026-07-28/envelope.js';
import { decodeHeaderValue, mcpNameSource, stripOws } from './rev-2026-07-28/header-values.js';
import { McpModernRefusal, ModernRefusals } from './rev-2026-07-28/refusals.js';
import { isModernRevision, isServedModernRevision, ModernHeader } from './rev-2026-07-28/rev-2026-07-28.constants.js';

/** Reads one request header by its lower-case name (undefined when absent). */
export type HeaderReader = (name: string) => string | undefined;

/** Where one incoming message goes: the legacy path as it always did, the modern path, or a refusal. */
export type EraRoute =
  | { readonly era: 'legacy' }
  | { readonly era: 'modern'; readonly kind: 'request'; readonly request: JsonRpcRequest; readonly envelope: McpModernEnvelope }
  | { readonly era: 'modern'; readonly kind: 'notification'; readonly notification: JsonRpcNotification }
  | { readonly era: 'refused'; readonly id: JsonRpcId | null; readonly refusal: McpModernRefusal };

const LEGACY: EraRoute = { era: 'legacy' };

/**
 * Routes one POSTed body between the eras (2026-07-28 "dual-era" rules, body first, headers only cross-check so
 * a proxy that strips a header cannot flip the era):
 * - a batch is legacy unless an element claims a revision (then 400 -32600);
 * - posted responses and claim-less messages are legacy (unchanged behaviour), except a claim-less request or
 *   notification whose `MCP-Protocol-Version` header names a modern revision (request: 400 -32602 naming the
 *   missing `_meta` keys; notification: accepted as modern);
 * - `initialize` is legacy unless it carries a valid modern claim;
 * - any other claim is modern and goes through the validation ladder: envelope (-32602), header/body
 *   cross-checks (-32020), revision support (-32022), required headers and `Mcp-Name` (-32020).
 */
export function routeHttpMessage(body: unknown, header: HeaderReader): EraRoute {
  if (Array.isArray(body)) {
    const claims = body.some((element) => isPlainObject(element) && hasVersionClaim(element.params));
    return claims ? { era: 'refused', id: null, refusal: ModernRefusals.invalidRequest('a JSON-RPC batch cannot carry 2026-07-28 requests') } : LEGACY;
  }
  if (!isPlainObject(body) || typeof body.method !== 'string') return LEGACY;
  const headerVersion = optional(header(ModernHeader.protocolVersion));
  const headerIsModern = headerVersion !== undefined && isModernRevision(headerVersion);
  const claims = hasVersionClaim(body.params);
  const isRequest = 'id' in body;

  if (!isRequest) {
    if (!claims && !headerIsModern) return LEGACY;
    const classified = classifyMessage(body);
    if (classified.kind !== 'notification') return { era: 'refused', id: null, refusal: ModernRefusals.invalidRequest(reasonOf(classified)) };
    const methodHeader = optional(header(ModernHeader.method));
    if (methodHeader !== undefined && methodHeader !== body.method) {
      return { era: 'refused', id: null, refusal: ModernRefusals.headerMismatch('Mcp-Method', `the header names ${clientText(methodHeader)}, the body ${clientText(body.method)}`) };
    }
    return { era: 'modern', kind: 'notification', notification: classified.message };
  }

  if (body.method === 'initialize' && !carriesModernClaim(body.params)) return LEGACY;
  const id = typeof body.id === 'string' || typeof body.id === 'number' ? body.id : null;
  if (!claims) {
    return headerIsModern ? { era: 'refused', id, refusal: ModernRefusals.missingEnvelope(missingEnvelopeKeys(body.params)) } : LEGACY;
  }
  const classified = classifyMessage(body);
  if (classified.kind !== 'request') return { era: 'refused', id, refusal: ModernRefusals.invalidRequest(reasonOf(classified)) };
  const request = classified.message;
  try {
    const envelope = checkEnvelope(request, headerVersion, optional(header(ModernHeader.method)));
    checkRequiredHeaders(request, headerVersion, header);
    return { era: 'modern', kind: 'request', request, envelope };
  } catch (error) {
    if (error instanceof McpModernRefusal) return { era: 'refused', id: request.id, refusal: error };
    throw error;
  }
}

/**
 * Steps 2 to 4 of the ladder, shared by every transport: the envelope, then the header/body cross-checks (the
 * version header before version support: a body naming `v999.0.0` under a `2026-07-28` header is a mismatch),
 * then the revision. Throws the refusal.
 */
export function checkEnvelope(request: JsonRpcRequest, headerVersion?: string, methodHeader?: string): McpModernEnvelope {
  const read = readEnvelope(request.params);
  if (!read.ok) throw ModernRefusals.invalidEnvelope(read.issue);
  const { envelope } = read;
  if (headerVersion !== undefined && headerVersion !== envelope.protocolVersion) {
    throw ModernRefusals.headerMismatch('MCP-Protocol-Version', `the header names ${clientText(headerVersion)}, the _meta envelope ${clientText(envelope.protocolVersion)}`);
  }
  if (methodHeader !== undefined && methodHeader !== request.method) {
    throw ModernRefusals.headerMismatch('Mcp-Method', `the header names ${clientText(methodHeader)}, the body ${clientText(request.method)}`);
  }
  if (!isServedModernRevision(envelope.protocolVersion)) throw ModernRefusals.unsupportedVersion(envelope.protocolVersion);
  return envelope;
}

/** Step 5: the standard headers every modern request POST carries, and `Mcp-Name` against the body. */
function checkRequiredHeaders(request: JsonRpcRequest, headerVersion: string | undefined, header: HeaderReader): void {
  if (headerVersion === undefined) throw ModernRefusals.headerMismatch('MCP-Protocol-Version', 'the required header is missing');
  if (optional(header(ModernHeader.method)) === undefined) throw ModernRefusals.headerMismatch('Mcp-Method', 'the required header is missing');
  const source = mcpNameSource(request.method, request.params);
  if (!source) return;
  const raw = header(ModernHeader.name);
  if (raw === undefined) {
    if (source.value !== undefined) throw ModernRefusals.headerMismatch('Mcp-Name', `the required header is missing (the body carries params.${source.field})`);
    return;
  }
  const decoded = decodeHeaderValue(raw);
  if (decoded === undefined) throw ModernRefusals.headerMismatch('Mcp-Name', 'the header carries malformed Base64');
  if (source.value !== undefined && decoded !== source.value) throw ModernRefusals.headerMismatch('Mcp-Name', `the header does not match params.${source.field}`);
}

/** A valid modern claim: a well-formed envelope naming a modern revision (served or not). */
export function carriesModernClaim(params: unknown): boolean {
  const read = readEnvelope(params);
  return read.ok && isModernRevision(read.envelope.protocolVersion);
}

/** A claim that would be served: a well-formed envelope naming a modern revision this server speaks. */
export function carriesServedClaim(params: unknown): boolean {
  const read = readEnvelope(params);
  return read.ok && isServedModernRevision(read.envelope.protocolVersion);
}

function optional(value: string | undefined): string | undefined {
  return value === undefined ? undefined : stripOws(value);
}

function reasonOf(classified: ReturnType<typeof classifyMessage>): string {
  return classified.kind === 'invalid' ? classified.reason : 'not a JSON-RPC request';
}
