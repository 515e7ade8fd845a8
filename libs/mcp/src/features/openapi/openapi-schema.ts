import type { JsonSchema } from '../../core/json-schema.types.js';
import { refOf, resolveRef } from './openapi-refs.js';

/** How many times one schema may nest inside itself (a recursive `$ref`, unrolled) before it is cut to `{}`. */
export const MAX_SCHEMA_RECURSION = 2;
/** How deep any schema may nest before the rest is cut to `{}`, recursive or not. */
export const MAX_SCHEMA_DEPTH = 32;

/** OpenAPI's own keywords, which say nothing a JSON Schema validator or a model needs. */
const OPENAPI_ONLY = new Set(['discriminator', 'xml', 'externalDocs', 'example']);
/** Keywords whose value maps names to schemas (its keys are names, not keywords). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Keywords whose value is data, copied as is. */
const DATA = new Set(['enum', 'const', 'default', 'examples']);

/** What a value is, so OpenAPI's keywords are dropped from schemas only (a property may be called `example`). */
type Kind = 'schema' | 'map' | 'data';

/**
 * A schema of an OpenAPI 3.1 document as a self-contained JSON Schema (2020-12, what MCP expects): a fresh tree
 * without OpenAPI's own keywords, its local `$ref`s replaced by what they point to, where a schema that recurs
 * within itself (a recursive `$ref`, or the cyclic graph of a dereferenced document) is unrolled
 * {@link MAX_SCHEMA_RECURSION} times and then cut to `{}` (anything), and nothing nests deeper than
 * {@link MAX_SCHEMA_DEPTH}. Bounded, so tools/list and the compiled validator stay small. Throws an
 * `OpenApiReferenceError` for a `$ref` that points nowhere.
 * @example
 * // Node = { type: 'object', properties: { child: Node } }
 * toJsonSchema(Node) // { type: 'object', properties: { child: { type: 'object', properties: { child: {} } } } }
 */
export function toJsonSchema(schema: unknown, document: Record<string, unknown> = {}): JsonSchema {
  const copy = copyBounded(schema, 'schema', { document, onPath: new Map() }, 0);
  return typeof copy === 'object' && copy !== null && !Array.isArray(copy) ? (copy as JsonSchema) : {};
}

/** The document `$ref`s point into, and how often each schema (an object, or a `$ref` by its text) is open on the path. */
interface Walk {
  readonly document: Record<string, unknown>;
  readonly onPath: Map<unknown, number>;
}

function copyBounded(value: unknown, kind: Kind, walk: Walk, depth: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const ref = kind === 'schema' ? refOf(value) : undefined;
  const key = ref ?? value;
  const seen = walk.onPath.get(key) ?? 0;
  if (seen >= MAX_SCHEMA_RECURSION || depth >= MAX_SCHEMA_DEPTH) return {};
  walk.onPath.set(key, seen + 1);
  try {
    if (Array.isArray(value)) return value.map((item) => copyBounded(item, kind, walk, depth + 1));
    // A `$ref` is what it points to; its siblings (3.1 allows `description` beside it) are laid over.
    const target =
      ref === undefined ? {} : (copyBounded(resolveRef(walk.document, ref), 'schema', walk, depth + 1) as Record<string, unknown>);
    const copy: Record<string, unknown> = { ...target };
    for (const [name, member] of Object.entries(value)) {
      if ((kind === 'schema' && OPENAPI_ONLY.has(name)) || (ref !== undefined && name === '$ref')) continue;
      copy[name] = copyBounded(member, childKind(kind, name), walk, depth + 1);
    }
    return copy;
  } finally {
    if (seen === 0) walk.onPath.delete(key);
    else walk.onPath.set(key, seen);
  }
}

function childKind(kind: Kind, key: string): Kind {
  if (kind !== 'schema') return kind === 'map' ? 'schema' : 'data';
  return SCHEMA_MAPS.has(key) ? 'map' : DATA.has(key) ? 'data' : 'schema';
}
