import { isPlainObject } from '../../../core/plain-object.js';
import { MCP_NAME_SOURCE } from '../../../core/rev-2026-07-28.constants.js';

// Header value rules of 2026-07-28 ("Request Metadata", "Custom Headers"): optional whitespace is not part of a
// value, and one that is not plain visible ASCII travels as `=?base64?<Base64 of its UTF-8>?=`.

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
/** RFC 4648 Base64 with the padding it requires: `SGVsbG8` (no `=`) is refused, as the spec's examples say. */
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const DECIMAL = /^-?\d+(?:\.\d+)?$/;
/** RFC 9110 `token`: what an `x-mcp-header` name may be. */
const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Drops RFC 9110 optional whitespace (spaces, tabs) around a field value. */
export function stripOws(value: string): string {
  return value.replace(/^[ \t]+|[ \t]+$/g, '');
}

/** A header's value: a `=?base64?…?=` payload decoded (undefined unless canonical Base64 of UTF-8), any other as is. */
export function decodeHeaderValue(raw: string): string | undefined {
  const value = stripOws(raw);
  if (!(
    value.startsWith(SENTINEL_PREFIX) &&
    value.endsWith(SENTINEL_SUFFIX) &&
    value.length >= SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length
  ))
    return value;
  const payload = value.slice(SENTINEL_PREFIX.length, value.length - SENTINEL_SUFFIX.length);
  if (!CANONICAL_BASE64.test(payload)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(payload, 'base64'));
  } catch {
    return undefined;
  }
}

/** The body value `Mcp-Name` must mirror for a method (`params.name`, `params.uri` or `params.taskId`). */
export function mcpNameSource(method: string, params: unknown): { field: string; value: string | undefined } | undefined {
  const field = Object.hasOwn(MCP_NAME_SOURCE, method) ? MCP_NAME_SOURCE[method] : undefined;
  if (!field) return undefined;
  const value = isPlainObject(params) ? params[field] : undefined;
  return { field, value: typeof value === 'string' ? value : undefined };
}

/** One `x-mcp-header` annotation of a tool's input schema: the argument path and the header it travels in. */
export interface McpParamHeader {
  readonly path: readonly string[];
  /** `{Name}` of `Mcp-Param-{Name}`, as declared. */
  readonly name: string;
  readonly type: 'string' | 'integer' | 'boolean';
}

/** Keywords an annotated property must not sit under: it has to be reachable through `properties` keys only. */
const UNREACHABLE_KEYWORDS = [
  'items',
  'prefixItems',
  'contains',
  'additionalProperties',
  'unevaluatedProperties',
  'patternProperties',
  'propertyNames',
  'dependentSchemas',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  '$defs',
  'definitions',
] as const;

/** Of those, the keywords whose value maps names to subschemas. */
const NAMED_SUBSCHEMAS: ReadonlySet<string> = new Set(['patternProperties', 'dependentSchemas', '$defs', 'definitions']);

/**
 * The `x-mcp-header` annotations of an input schema, or the first rule broken that clients enforce (an RFC 9110
 * token, unique case-insensitively, on a `string`, `integer` or `boolean` property reached through `properties`).
 */
export function scanParamHeaders(schema: unknown): { ok: true; headers: McpParamHeader[] } | { ok: false; problem: string } {
  const headers: McpParamHeader[] = [];
  const seen = new Map<string, string>();
  const visit = (node: unknown, path: string[], reachable: boolean): string | undefined => {
    if (!isPlainObject(node)) return undefined;
    if ('x-mcp-header' in node) {
      const where = path.length === 0 ? 'the schema root' : `property "${path.join('.')}"`;
      const name = node['x-mcp-header'];
      if (!reachable || path.length === 0) return `x-mcp-header on ${where} is not reachable through "properties" keys only`;
      if (typeof name !== 'string' || !HTTP_TOKEN.test(name))
        return `x-mcp-header on ${where} must be a non-empty HTTP token (letters, digits, -, _ ...)`;
      const type = node.type;
      if (type !== 'string' && type !== 'integer' && type !== 'boolean')
        return `x-mcp-header on ${where} needs type string, integer or boolean (got ${JSON.stringify(type)})`;
      const previous = seen.get(name.toLowerCase());
      if (previous) return `x-mcp-header "${name}" is declared twice (also as "${previous}")`;
      seen.set(name.toLowerCase(), name);
      headers.push({ path, name, type });
    }
    if (isPlainObject(node.properties)) {
      for (const [key, child] of Object.entries(node.properties)) {
        const problem = visit(child, [...path, key], reachable);
        if (problem) return problem;
      }
    }
    for (const keyword of UNREACHABLE_KEYWORDS) {
      const sub = node[keyword];
      if (sub === undefined) continue;
      const branches = Array.isArray(sub) ? sub : NAMED_SUBSCHEMAS.has(keyword) && isPlainObject(sub) ? Object.values(sub) : [sub];
      for (const branch of branches) {
        const problem = visit(branch, [...path, `<${keyword}>`], false);
        if (problem) return problem;
      }
    }
    return undefined;
  };
  const problem = visit(schema, [], true);
  return problem ? { ok: false, problem } : { ok: true, headers };
}

/** The header form of a body value (strings as is, integers in decimal, booleans `true`/`false`); undefined: none. */
function headerForm(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) node = isPlainObject(node) ? node[key] : undefined;
  return node;
}

/**
 * The first mismatch of a `tools/call`'s `Mcp-Param-*` headers with its arguments: each non-null argument needs
 * its header, decoding to the same value (integers compare numerically).
 */
export function paramHeaderMismatch(
  declared: readonly McpParamHeader[],
  args: unknown,
  header: (name: string) => string | undefined,
): string | undefined {
  for (const declaration of declared) {
    const body = valueAt(args, declaration.path);
    const expected = body === null || body === undefined ? undefined : headerForm(body);
    if (expected === undefined) continue;
    const headerName = `Mcp-Param-${declaration.name}`;
    const raw = header(headerName.toLowerCase());
    if (raw === undefined) return `${headerName} is missing but the arguments carry ${declaration.path.join('.')}`;
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) return `${headerName} carries malformed Base64`;
    const equal =
      declaration.type === 'integer' && typeof body === 'number' && DECIMAL.test(decoded) ? Number(decoded) === body : decoded === expected;
    if (!equal) return `${headerName} does not match the arguments' ${declaration.path.join('.')}`;
  }
  return undefined;
}
