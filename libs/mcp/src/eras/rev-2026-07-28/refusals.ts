import { JsonRpcErrorCode } from '../../core/json-rpc/json-rpc-error-codes.js';
import type { JsonRpcErrorObject } from '../../core/json-rpc/json-rpc.types.js';
import { McpProtocolError } from '../../core/errors/protocol-error.js';
import { clientText } from '../../core/client-text.js';
import type { EnvelopeIssue } from './envelope.js';
import { REV_2026_07_28_VERSIONS } from '../../core/protocol-revisions.js';
import { Rev20260728ErrorCode } from '../../core/rev-2026-07-28.constants.js';

/** A refusal of a 2026-07-28 request before any handler, with its HTTP status (400, or 404 for unknown methods). */
export class McpRev20260728Refusal extends McpProtocolError {
  constructor(
    readonly status: number,
    code: number,
    message: string,
    data?: unknown,
  ) {
    super(code, message, data);
    this.name = 'McpRev20260728Refusal';
  }
}

/** The refusals of the 2026-07-28 request ladder, one builder per case. */
export const Rev20260728Refusals = {
  invalidRequest: (reason: string) => badRequest(JsonRpcErrorCode.INVALID_REQUEST, `Invalid Request: ${reason}`),
  invalidEnvelope: (issue: EnvelopeIssue) =>
    badRequest(JsonRpcErrorCode.INVALID_PARAMS, `Invalid params: _meta envelope key ${issue.key}: ${issue.problem}`, { envelope: issue }),
  missingEnvelope: (missing: readonly string[]) =>
    badRequest(
      JsonRpcErrorCode.INVALID_PARAMS,
      `Invalid params: a 2026-07-28 request needs the _meta envelope key(s) ${missing.join(', ')}`,
      { envelope: { missing } },
    ),
  headerMismatch: (header: string, problem: string) =>
    badRequest(Rev20260728ErrorCode.HEADER_MISMATCH, `Header mismatch: ${problem}`, { mismatch: { header, problem } }),
  unsupportedVersion: (requested: string) =>
    badRequest(Rev20260728ErrorCode.UNSUPPORTED_PROTOCOL_VERSION, `Unsupported protocol version: ${clientText(requested)}`, {
      supported: [...REV_2026_07_28_VERSIONS],
      requested: clientText(requested),
    }),
  missingCapability: (requiredCapabilities: Record<string, unknown>) =>
    badRequest(
      Rev20260728ErrorCode.MISSING_REQUIRED_CLIENT_CAPABILITY,
      `Missing required client capability: ${describe(requiredCapabilities)}`,
      { requiredCapabilities },
    ),
  methodNotFound: (method: string) =>
    new McpRev20260728Refusal(404, JsonRpcErrorCode.METHOD_NOT_FOUND, `Method not found: ${clientText(method)}`),
} as const;

function badRequest(code: number, message: string, data?: unknown): McpRev20260728Refusal {
  return new McpRev20260728Refusal(400, code, message, data);
}

function describe(capabilities: Record<string, unknown>): string {
  const extensions = capabilities.extensions as Record<string, unknown> | undefined;
  const names = Object.keys(capabilities).filter((name) => name !== 'extensions');
  return [...names, ...Object.keys(extensions ?? {})].join(', ');
}

/**
 * A 2026-07-28 error's HTTP status: in-band 200, but 404 for method-not-found and 400 for a missing capability or a
 * header mismatch (the spec's; the tools/call hook's refusals reach the era as dispatcher answers).
 */
export function rev20260728HttpStatus(error: JsonRpcErrorObject): number {
  if (error.code === JsonRpcErrorCode.METHOD_NOT_FOUND) return 404;
  if (error.code === Rev20260728ErrorCode.MISSING_REQUIRED_CLIENT_CAPABILITY || error.code === Rev20260728ErrorCode.HEADER_MISMATCH)
    return 400;
  return 200;
}
