import { clientText } from '../core/client-text.js';
import { classifyMessage, idOf } from '../core/json-rpc/json-rpc.codec.js';
import type { JsonRpcId, JsonRpcNotification, JsonRpcRequest } from '../core/json-rpc/json-rpc.types.js';
import { hasVersionClaim, missingEnvelopeKeys, readEnvelope, type McpRev20260728Envelope } from './rev-2026-07-28/envelope.js';
import { isPlainObject } from '../core/plain-object.js';
import { decodeHeaderValue, mcpNameSource } from './rev-2026-07-28/http/header-values.js';
import { readEraHeaders, type EraHeaders } from './rev-2026-07-28/http/request-headers.js';
import type { McpEraChannel } from './mcp-era.channel.js';
import { McpRev20260728Refusal, Rev20260728Refusals } from './rev-2026-07-28/refusals.js';
import { eraOfRevision, isServedRev20260728, type McpEra } from '../core/protocol-revisions.js';

export type { EraHeaders, McpEra };

/** One incoming message and the revision its channel names; only {@link routeMessage} turns that into an era. */
export interface EraClaim {
  readonly message: unknown;
  /** The revision named outside the body: the HTTP `MCP-Protocol-Version` header, or a stdio connection's pinned era. */
  readonly channelRevision?: string;
  /**
   * `channelRevision` is a connection's pinned era (stdio): 2025-11-25 stays so whatever messages claim; 2026-07-28
   * drops stray responses and refuses `initialize` and non-messages.
   */
  readonly pinned: boolean;
  /** The 2026-07-28 headers to check against the body (HTTP); undefined where there are none (stdio). */
  readonly headers?: EraHeaders;
}

/**
 * What a message on a channel claims: a connection's pinned era or a held session's revision (stdio, HTTP+SSE: pinned),
 * else the revision headers (HTTP); none beside the message on a connection not pinned yet.
 */
export function claimOf(message: unknown, channel: McpEraChannel): EraClaim {
  const pinned = channel.session?.protocolVersion ?? channel.connection?.era;
  if (pinned !== undefined) return { message, channelRevision: pinned, pinned: true };
  if (!channel.header) return { message, pinned: false };
  const headers = readEraHeaders(channel as { header(name: string): string | undefined });
  return { message, channelRevision: headers.protocolVersion, pinned: false, headers };
}

/** Where one incoming message goes. */
export type EraRoute =
  | {
      readonly era: '2025-11-25';
      /** A claim-less `initialize`: the opening of a 2025-11-25 connection (stdio pins it). */
      readonly opening: boolean;
      /** A claim-less `server/discover`: a dual-era probe, answered -32601 (HTTP 200) by 2025-11-25. */
      readonly probe: boolean;
    }
  | {
      readonly era: '2026-07-28';
      readonly kind: 'request';
      readonly request: JsonRpcRequest;
      readonly envelope: McpRev20260728Envelope;
      /** Every request but the `server/discover` probe pins a stdio connection to this era. */
      readonly pins: boolean;
    }
  | { readonly era: '2026-07-28'; readonly kind: 'notification'; readonly notification: JsonRpcNotification }
  /** A response on a connection pinned to 2026-07-28: this era sends no requests, so there is nothing to settle. */
  | { readonly era: '2026-07-28'; readonly kind: 'response' }
  | { readonly era: 'refused'; readonly id: JsonRpcId | null; readonly refusal: McpRev20260728Refusal };

/**
 * The one era router: decides, per message, which era serves it (the 2026-07-28 "dual-era" rules, body first;
 * the channel only cross-checks, so a proxy that strips a header cannot flip the era):
 * - a pinned 2025-11-25 connection stays 2025-11-25;
 * - a batch is 2025-11-25 unless an element claims a revision (then -32600); anything else that is not a message
 *   (a posted response included) is 2025-11-25, except on a connection pinned to 2026-07-28;
 * - a claim-less message is 2025-11-25 unless the channel names a 2026 revision: then a request is refused with
 *   -32602 naming the missing `_meta` keys and a notification is accepted;
 * - `initialize` is 2025-11-25 unless it carries a valid 2026 claim (refused on a connection pinned to 2026-07-28:
 *   no fallback once the era is confirmed);
 * - any other claim is 2026-07-28 and goes through the ladder: envelope (-32602), header/body cross-checks
 *   (-32020), revision support (-32022), then on HTTP the required headers and `Mcp-Name` (-32020).
 */
export function routeMessage(claim: EraClaim): EraRoute {
  const { message, channelRevision, pinned, headers } = claim;
  const channel2026 = channelRevision !== undefined && eraOfRevision(channelRevision) === '2026-07-28';
  if (pinned && channelRevision !== undefined && !channel2026) return era2025(message);
  const pinned2026 = pinned && channel2026;

  if (!isPlainObject(message) || typeof message.method !== 'string') {
    if (Array.isArray(message) && message.some((element) => isPlainObject(element) && hasVersionClaim(element.params))) {
      return refused(null, Rev20260728Refusals.invalidRequest('a JSON-RPC batch cannot carry 2026-07-28 requests'));
    }
    if (!pinned2026) return era2025(message);
    if (isPlainObject(message) && ('result' in message || 'error' in message)) return { era: '2026-07-28', kind: 'response' };
    return refused(idOf(message), Rev20260728Refusals.invalidRequest('only requests and notifications are accepted here'));
  }
  const claims = hasVersionClaim(message.params);

  if (!('id' in message)) {
    if (!claims && !channel2026) return era2025(message);
    const classified = classifyMessage(message);
    if (classified.kind !== 'notification') return refused(null, Rev20260728Refusals.invalidRequest(reasonOf(classified)));
    const mismatch = methodMismatch(message.method, headers);
    return mismatch ? refused(null, mismatch) : { era: '2026-07-28', kind: 'notification', notification: classified.message };
  }

  const id = idOf(message);
  if (message.method === 'initialize' && !carriesRev20260728Claim(message.params)) {
    if (!pinned2026) return era2025(message);
    // A 2026-07-28 connection cannot fall back: name the revisions it speaks (stdio has no status to say it).
    const params = message.params;
    return refused(
      id,
      Rev20260728Refusals.unsupportedVersion(
        isPlainObject(params) && typeof params.protocolVersion === 'string' ? params.protocolVersion : 'unknown',
      ),
    );
  }
  if (!claims)
    return channel2026 ? refused(id, Rev20260728Refusals.missingEnvelope(missingEnvelopeKeys(message.params))) : era2025(message);
  const classified = classifyMessage(message);
  if (classified.kind !== 'request') return refused(id, Rev20260728Refusals.invalidRequest(reasonOf(classified)));
  const request = classified.message;
  try {
    const envelope = checkEnvelope(request, headers);
    if (headers) checkRequiredHeaders(request, headers);
    return { era: '2026-07-28', kind: 'request', request, envelope, pins: request.method !== 'server/discover' };
  } catch (error) {
    if (error instanceof McpRev20260728Refusal) return refused(request.id, error);
    throw error;
  }
}

/**
 * Steps 2 to 4 of the ladder: the envelope, then the header/body cross-checks (the version header before version
 * support: a body naming `v999.0.0` under a `2026-07-28` header is a mismatch), then the revision. Throws the refusal.
 */
function checkEnvelope(request: JsonRpcRequest, headers: EraHeaders | undefined): McpRev20260728Envelope {
  const read = readEnvelope(request.params);
  if (!read.ok) throw Rev20260728Refusals.invalidEnvelope(read.issue);
  const { envelope } = read;
  if (headers?.protocolVersion !== undefined && headers.protocolVersion !== envelope.protocolVersion) {
    throw Rev20260728Refusals.headerMismatch(
      'MCP-Protocol-Version',
      `the header names ${clientText(headers.protocolVersion)}, the _meta envelope ${clientText(envelope.protocolVersion)}`,
    );
  }
  const mismatch = methodMismatch(request.method, headers);
  if (mismatch) throw mismatch;
  if (!isServedRev20260728(envelope.protocolVersion)) throw Rev20260728Refusals.unsupportedVersion(envelope.protocolVersion);
  return envelope;
}

/** Step 5 (HTTP): the standard headers every 2026-07-28 request POST carries, and `Mcp-Name` against the body. */
function checkRequiredHeaders(request: JsonRpcRequest, headers: EraHeaders): void {
  if (headers.protocolVersion === undefined)
    throw Rev20260728Refusals.headerMismatch('MCP-Protocol-Version', 'the required header is missing');
  if (headers.method === undefined) throw Rev20260728Refusals.headerMismatch('Mcp-Method', 'the required header is missing');
  const source = mcpNameSource(request.method, request.params);
  if (!source) return;
  if (headers.name === undefined) {
    if (source.value !== undefined)
      throw Rev20260728Refusals.headerMismatch('Mcp-Name', `the required header is missing (the body carries params.${source.field})`);
    return;
  }
  const decoded = decodeHeaderValue(headers.name);
  if (decoded === undefined) throw Rev20260728Refusals.headerMismatch('Mcp-Name', 'the header carries malformed Base64');
  if (source.value !== undefined && decoded !== source.value)
    throw Rev20260728Refusals.headerMismatch('Mcp-Name', `the header does not match params.${source.field}`);
}

function methodMismatch(method: string, headers: EraHeaders | undefined): McpRev20260728Refusal | undefined {
  if (headers?.method === undefined || headers.method === method) return undefined;
  return Rev20260728Refusals.headerMismatch('Mcp-Method', `the header names ${clientText(headers.method)}, the body ${clientText(method)}`);
}

/** A valid 2026 claim: a well-formed envelope naming a 2026 revision (served or not). */
function carriesRev20260728Claim(params: unknown): boolean {
  const read = readEnvelope(params);
  return read.ok && eraOfRevision(read.envelope.protocolVersion) === '2026-07-28';
}

function era2025(message: unknown): EraRoute {
  const method = isPlainObject(message) && 'id' in message ? message.method : undefined;
  return { era: '2025-11-25', opening: method === 'initialize', probe: method === 'server/discover' };
}

function refused(id: JsonRpcId | null, refusal: McpRev20260728Refusal): EraRoute {
  return { era: 'refused', id, refusal };
}

function reasonOf(classified: ReturnType<typeof classifyMessage>): string {
  return classified.kind === 'invalid' ? classified.reason : 'not a JSON-RPC request';
}
