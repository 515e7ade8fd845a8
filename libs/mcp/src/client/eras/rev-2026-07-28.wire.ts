/**
 * What the client writes and reads of revision 2026-07-28 (the stateless era): the `_meta` envelope every request
 * carries, the HTTP headers that mirror it, and the shapes of its results. The wire names (`_meta` keys, error
 * codes, which field `Mcp-Name` mirrors) are core's, shared with the server.
 */
import { META, MCP_NAME_SOURCE } from '../../core/rev-2026-07-28.constants.js';

/** Who the client is, as the envelope tells it on every request. */
export interface ModernIdentity {
  readonly protocolVersion: string;
  readonly capabilities: Record<string, unknown>;
  readonly clientInfo: { name: string; version: string; title?: string };
}

/** The `_meta` envelope of one request: revision, capabilities (required, `{}` for none) and client info. */
export function modernEnvelope(identity: ModernIdentity): Record<string, unknown> {
  return {
    [META.protocolVersion]: identity.protocolVersion,
    [META.clientCapabilities]: identity.capabilities,
    [META.clientInfo]: identity.clientInfo,
  };
}

/** An argument a tool asks clients to mirror in `Mcp-Param-<name>` (`x-mcp-header` in its input schema). */
export interface ModernParamHeader {
  readonly path: readonly string[];
  readonly name: string;
}

/** Where a transport finds the `x-mcp-header` arguments of a tool the client has listed. */
export type ModernParamHeaders = (tool: string) => readonly ModernParamHeader[] | undefined;

const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * The `x-mcp-header` arguments of an input schema (on properties reached from the root through `properties` alone),
 * or undefined when one breaks the rules (SEP-2243): a name that is empty or no HTTP token, on a property that is not
 * a string, integer or boolean, or a name used twice (case-insensitively). Clients exclude such a tool: they could
 * not send its headers.
 */
export function paramHeadersOf(schema: unknown): ModernParamHeader[] | undefined {
  const found: ModernParamHeader[] = [];
  const seen = new Set<string>();
  const valid = (node: unknown, path: readonly string[]): boolean => {
    const properties = (node as { properties?: unknown } | null)?.properties;
    if (typeof properties !== 'object' || properties === null) return true;
    for (const [key, property] of Object.entries(properties as Record<string, unknown>)) {
      if (typeof property !== 'object' || property === null) continue;
      if (Object.hasOwn(property, 'x-mcp-header')) {
        const { type, 'x-mcp-header': name } = property as { type?: unknown; 'x-mcp-header'?: unknown };
        if (typeof name !== 'string' || !HTTP_TOKEN.test(name)) return false;
        if (type !== 'string' && type !== 'integer' && type !== 'boolean') return false;
        if (seen.has(name.toLowerCase())) return false;
        seen.add(name.toLowerCase());
        found.push({ path: [...path, key], name });
      }
      if (!valid(property, [...path, key])) return false;
    }
    return true;
  };
  return valid(schema, []) ? found : undefined;
}

/**
 * The headers of one 2026-07-28 POST: `MCP-Protocol-Version` (= the envelope's), `Mcp-Method`, for the methods
 * that name something `Mcp-Name`, and for `tools/call` the `Mcp-Param-*` of the tool's `x-mcp-header`
 * arguments. Notifications carry the first two only.
 */
export function modernHeaders(
  protocolVersion: string,
  message: Record<string, unknown>,
  paramHeaders?: ModernParamHeaders,
): Record<string, string> {
  const method = typeof message.method === 'string' ? message.method : undefined;
  if (method === undefined) return { 'mcp-protocol-version': protocolVersion };
  const field = Object.hasOwn(MCP_NAME_SOURCE, method) ? MCP_NAME_SOURCE[method] : undefined;
  const params = message.params as Record<string, unknown> | undefined;
  const name = field === undefined ? undefined : params?.[field];
  const headers: Record<string, string> = {
    'mcp-protocol-version': protocolVersion,
    'mcp-method': method,
    ...(typeof name === 'string' && { 'mcp-name': encodeHeaderValue(name) }),
  };
  if (method === 'tools/call' && typeof name === 'string') {
    for (const param of paramHeaders?.(name) ?? []) {
      let value: unknown = params?.arguments;
      for (const key of param.path)
        value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
      if (typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isInteger(value))) {
        headers[`mcp-param-${param.name.toLowerCase()}`] = encodeHeaderValue(String(value));
      }
    }
  }
  return headers;
}

/**
 * A header value as clients must send it: plain visible ASCII as it is; anything else (non-ASCII, control
 * characters, surrounding spaces, or a value that would read as the sentinel) as `=?base64?<Base64 of UTF-8>?=`.
 */
export function encodeHeaderValue(value: string): string {
  const plain =
    value !== '' && value === value.trim() && /^[\x20-\x7e]*$/.test(value) && !(value.startsWith('=?base64?') && value.endsWith('?='));
  return plain ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/**
 * A complete 2026-07-28 result as the caller gets it: `resultType: "complete"` is protocol plumbing and goes;
 * everything else (`ttlMs`, `cacheScope`, `_meta` with the server's info) stays as the server sent it.
 */
export function completeResult(result: Record<string, unknown>): Record<string, unknown> {
  if (!('resultType' in result)) return result;
  const { resultType: _resultType, ...rest } = result;
  return rest;
}
