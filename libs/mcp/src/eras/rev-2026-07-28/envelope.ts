import { LOG_LEVELS, type McpLogLevel } from '../../core/mcp-log-level.js';
import { META } from '../../core/rev-2026-07-28.constants.js';
import { isPlainObject } from '../../core/plain-object.js';

/** The `_meta` envelope of a 2026-07-28 request: all it says about its client, read from it alone (there is no session). */
export interface McpRev20260728Envelope {
  readonly protocolVersion: string;
  /** `ClientCapabilities` this request may rely on (`{}`: none of the optional ones). */
  readonly clientCapabilities: Record<string, unknown>;
  readonly clientInfo?: Record<string, unknown>;
  /** Set when the request opted into `notifications/message` at or above this level. */
  readonly logLevel?: McpLogLevel;
}

/** Why an envelope was refused: the key and what is wrong with it (the `data.envelope` of the -32602). */
export interface EnvelopeIssue {
  readonly key: string;
  readonly problem: string;
}

/** The `_meta` object of some params, if it is an object. */
export function metaOf(params: unknown): Record<string, unknown> | undefined {
  const meta = isPlainObject(params) ? params._meta : undefined;
  return isPlainObject(meta) ? meta : undefined;
}

/** A "claim": `params._meta` holds the protocol-version key, whatever its value. Claims route to the 2026-07-28 era. */
export function hasVersionClaim(params: unknown): boolean {
  const meta = metaOf(params);
  return meta !== undefined && META.protocolVersion in meta;
}

/** The required envelope keys missing from some params (for the -32602 of a claim-less 2026-07-28 request). */
export function missingEnvelopeKeys(params: unknown): string[] {
  const meta = metaOf(params);
  if (!meta) return ['_meta'];
  return [META.protocolVersion, META.clientCapabilities].filter((key) => meta[key] === undefined);
}

const CAPABILITY_OBJECTS = ['roots', 'sampling', 'elicitation', 'experimental', 'extensions'] as const;

/** Reads and checks a claiming request's envelope (`logLevel` apart: an in-band -32602, see {@link envelopeLogLevel}). */
export function readEnvelope(params: unknown): { ok: true; envelope: McpRev20260728Envelope } | { ok: false; issue: EnvelopeIssue } {
  const meta = metaOf(params);
  if (!meta) return { ok: false, issue: { key: '_meta', problem: 'missing' } };
  const version = meta[META.protocolVersion];
  if (version === undefined) return { ok: false, issue: { key: META.protocolVersion, problem: 'missing' } };
  if (typeof version !== 'string' || version === '')
    return { ok: false, issue: { key: META.protocolVersion, problem: 'expected a protocol version string' } };
  const capabilities = meta[META.clientCapabilities];
  if (capabilities === undefined) return { ok: false, issue: { key: META.clientCapabilities, problem: 'missing' } };
  if (!isPlainObject(capabilities))
    return { ok: false, issue: { key: META.clientCapabilities, problem: 'expected a ClientCapabilities object' } };
  for (const name of CAPABILITY_OBJECTS) {
    if (capabilities[name] !== undefined && !isPlainObject(capabilities[name])) {
      return { ok: false, issue: { key: `${META.clientCapabilities}.${name}`, problem: 'expected an object' } };
    }
  }
  const clientInfo = meta[META.clientInfo];
  if (clientInfo !== undefined && !isPlainObject(clientInfo))
    return { ok: false, issue: { key: META.clientInfo, problem: 'expected an Implementation object' } };
  const level = meta[META.logLevel];
  return {
    ok: true,
    envelope: {
      protocolVersion: version,
      clientCapabilities: capabilities,
      ...(clientInfo !== undefined && { clientInfo }),
      ...(typeof level === 'string' && LOG_LEVELS.includes(level as McpLogLevel) && { logLevel: level as McpLogLevel }),
    },
  };
}

/** True when the envelope names a log level that is not an RFC 5424 level (an in-band -32602). */
export function hasInvalidLogLevel(params: unknown): boolean {
  const level = metaOf(params)?.[META.logLevel];
  return level !== undefined && !(typeof level === 'string' && LOG_LEVELS.includes(level as McpLogLevel));
}
