import { eraOfRevision, REV_2026_07_28_VERSIONS } from '../../core/protocol-revisions.js';
import { McpClientError } from '../mcp-client.error.js';
import { statusError } from '../transports/http-headers.js';
import { Rev20260728ErrorCode } from '../../core/rev-2026-07-28.constants.js';
import { isPlainObject } from '../../core/plain-object.js';

/**
 * What the `server/discover` probe got back. HTTP: the status and the body (parsed JSON, or `json: false`).
 * stdio and in-memory: the JSON-RPC response (no status). `failure`: no answer at all (network error, timeout,
 * the child exited).
 */
export type McpProbeAnswer =
  | { readonly status?: number; readonly json: true; readonly body: unknown }
  | { readonly status: number; readonly json: false }
  | { readonly failure: McpClientError };

/**
 * The era the probe's answer points to: `modern` (this revision; `result` is the DiscoverResult), `retry` (probe
 * once more at this revision: the server named it in a -32022), `legacy` (`initialize`, then 2024-11-05 HTTP+SSE)
 * or `error` (no fallback: the server is down or broken, or speaks only revisions we do not).
 */
export type McpProbeVerdict =
  | { readonly kind: 'modern'; readonly version: string; readonly result: Record<string, unknown> }
  | { readonly kind: 'retry'; readonly version: string }
  | { readonly kind: 'legacy'; readonly reason: string }
  | { readonly kind: 'error'; readonly error: McpClientError };

/**
 * The dual-era client's reading of a probe (MCP 2026-07-28 "versioning"; the verdict table of the SDK client,
 * which servers are built against): a valid DiscoverResult with a common revision is modern; -32022 naming a
 * common revision is a retry; the answers of a 2025 server (4xx without a JSON-RPC error, -32601, "no session"
 * -32000, any other JSON-RPC error, a result that is no DiscoverResult) are legacy; 401/403, 5xx, a 2xx body that
 * is not JSON and a network failure are errors (never an era). Over stdio, no answer in time is legacy.
 */
export function probeVerdict(answer: McpProbeAnswer, connection: 'http' | 'process'): McpProbeVerdict {
  if ('failure' in answer) {
    return connection === 'http' ? { kind: 'error', error: answer.failure } : { kind: 'legacy', reason: 'no answer to server/discover' };
  }
  const status = answer.status;
  if (status !== undefined) {
    if (status === 401 || status === 403 || status >= 500) return { kind: 'error', error: statusError(status, 'server/discover') };
    if (status >= 200 && status < 300 && !answer.json) {
      return { kind: 'error', error: new McpClientError('PROTOCOL', 'The server answered server/discover with a body that is not JSON') };
    }
  }
  const body = answer.json ? answer.body : undefined;
  if (!isPlainObject(body) || body.jsonrpc !== '2.0') return { kind: 'legacy', reason: `HTTP ${status} without a JSON-RPC answer` };
  if (isPlainObject(body.error)) return errorVerdict(body.error);
  if (!isPlainObject(body.result)) return { kind: 'legacy', reason: 'an answer that is no JSON-RPC response' };
  const supported = body.result.supportedVersions;
  if (!Array.isArray(supported) || !isPlainObject(body.result.capabilities))
    return { kind: 'legacy', reason: 'a result that is no DiscoverResult' };
  const common = REV_2026_07_28_VERSIONS.find((version) => supported.includes(version));
  return common === undefined
    ? { kind: 'legacy', reason: 'no common 2026-07-28-era revision' }
    : { kind: 'modern', version: common, result: body.result };
}

function errorVerdict(error: Record<string, unknown>): McpProbeVerdict {
  if (error.code !== Rev20260728ErrorCode.UNSUPPORTED_PROTOCOL_VERSION)
    return { kind: 'legacy', reason: `server/discover answered ${String(error.code)}` };
  const supported = isPlainObject(error.data) ? error.data.supported : undefined;
  if (!Array.isArray(supported) || !supported.every((version) => typeof version === 'string')) {
    return { kind: 'legacy', reason: '-32022 without data.supported' };
  }
  const common = REV_2026_07_28_VERSIONS.find((version) => supported.includes(version));
  if (common !== undefined) return { kind: 'retry', version: common };
  if (supported.some((version: string) => eraOfRevision(version) === '2026-07-28')) {
    return {
      kind: 'error',
      error: new McpClientError(
        'PROTOCOL',
        `The server speaks revisions ${supported.join(', ')}; this client speaks ${REV_2026_07_28_VERSIONS.join(', ')} and the initialize era`,
      ),
    };
  }
  return { kind: 'legacy', reason: '-32022 naming only initialize-era revisions' };
}
