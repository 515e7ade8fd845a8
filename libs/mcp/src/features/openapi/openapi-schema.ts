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

/** How many nodes (objects and arrays) a tool's schema may hold with every `$ref` inlined; past it, see {@link toolSchema}. */
export const MAX_INLINED_NODES = 1_000;
/** How many nodes a tool's schema may hold with its shared schemas kept once under `$defs`; past it, it is refused. */
export const MAX_SCHEMA_NODES = 10_000;

/** A tool schema that stays over {@link MAX_SCHEMA_NODES} even with its shared schemas under `$defs`. */
export class OpenApiSchemaTooLargeError extends Error {}

/** The converter of one part of a tool's schema (a parameter's, a body property's, a response's schema). */
export type OpenApiSchemaConverter = (schema: unknown) => JsonSchema;

/**
 * One tool schema, self-contained JSON Schema (2020-12, what MCP expects), from parts of an OpenAPI 3.1 document:
 * `build` converts each part with the converter it is given and returns the whole. Each part is a fresh tree without
 * OpenAPI's own keywords, its local `$ref`s replaced by what they point to, where a schema that recurs within itself
 * (a recursive `$ref`, or a cyclic graph) is unrolled {@link MAX_SCHEMA_RECURSION} times and then cut to `{}`
 * (anything), and nothing nests deeper than {@link MAX_SCHEMA_DEPTH}. Inlining copies a schema each time it is
 * referenced, so a `$ref` shared level after level grows exponentially: when the whole passes
 * {@link MAX_INLINED_NODES}, `build` runs again with each referenced schema kept once under the root's `$defs` and
 * `$ref`s pointing there (recursion then kept as is), which grows with the document. Throws an
 * `OpenApiReferenceError` for a `$ref` that points nowhere, an {@link OpenApiSchemaTooLargeError} past
 * {@link MAX_SCHEMA_NODES}.
 */
export function toolSchema(document: Record<string, unknown>, build: (convert: OpenApiSchemaConverter) => JsonSchema): JsonSchema {
  try {
    return build(converter({ document, onPath: new Map(), budget: { nodesLeft: MAX_INLINED_NODES } }));
  } catch (error) {
    if (!(error instanceof NodesSpent)) throw error;
  }
  const defs: Defs = { names: new Map(), taken: new Set(), schemas: {} };
  let schema: JsonSchema;
  try {
    schema = build(converter({ document, onPath: new Map(), budget: { nodesLeft: MAX_SCHEMA_NODES }, defs }));
  } catch (error) {
    if (error instanceof NodesSpent)
      throw new OpenApiSchemaTooLargeError(`holds more than ${MAX_SCHEMA_NODES} nodes, even with each shared schema kept once under $defs`);
    throw error;
  }
  const own = typeof schema.$defs === 'object' && schema.$defs !== null ? schema.$defs : {};
  return Object.keys(defs.schemas).length === 0 ? schema : { ...schema, $defs: { ...own, ...defs.schemas } };
}

/**
 * One schema of a document on its own, inlined (see {@link toolSchema}).
 * @example
 * // Node = { type: 'object', properties: { child: Node } }
 * toJsonSchema(Node) // { type: 'object', properties: { child: { type: 'object', properties: { child: {} } } } }
 */
export function toJsonSchema(schema: unknown, document: Record<string, unknown> = {}): JsonSchema {
  return toolSchema(document, (convert) => convert(schema));
}

/** The schema budget is spent: inline no further (or refuse, under `$defs`). */
class NodesSpent extends Error {}

/** Shared schemas kept under `$defs`: the name given to each `$ref`, the names taken, and the copies by name. */
interface Defs {
  readonly names: Map<string, string>;
  readonly taken: Set<string>;
  readonly schemas: Record<string, unknown>;
}

/**
 * The document `$ref`s point into, how often each schema (an object, or a `$ref` by its text) is open on the path,
 * how many more nodes the tool's schema may take, and, once inlining is over budget, where shared schemas go.
 */
interface Walk {
  readonly document: Record<string, unknown>;
  readonly onPath: Map<unknown, number>;
  readonly budget: { nodesLeft: number };
  readonly defs?: Defs;
}

const converter =
  (walk: Walk): OpenApiSchemaConverter =>
  (schema) => {
    const copy = copyBounded(schema, 'schema', walk, 0);
    return typeof copy === 'object' && copy !== null && !Array.isArray(copy) ? (copy as JsonSchema) : {};
  };

function copyBounded(value: unknown, kind: Kind, walk: Walk, depth: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const ref = kind === 'schema' ? refOf(value) : undefined;
  const key = ref ?? value;
  const seen = walk.onPath.get(key) ?? 0;
  if (seen >= MAX_SCHEMA_RECURSION || depth >= MAX_SCHEMA_DEPTH) return {};
  if (--walk.budget.nodesLeft < 0) throw new NodesSpent();
  walk.onPath.set(key, seen + 1);
  try {
    if (Array.isArray(value)) return value.map((item) => copyBounded(item, kind, walk, depth + 1));
    // A `$ref` is what it points to (or, under `$defs`, a `$ref` there); its siblings (3.1 allows `description`
    // beside it) are laid over.
    const target: Record<string, unknown> =
      ref === undefined
        ? {}
        : walk.defs
          ? { $ref: `#/$defs/${definitionOf(ref, walk, walk.defs)}` }
          : (copyBounded(resolveRef(walk.document, ref), 'schema', walk, depth + 1) as Record<string, unknown>);
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

/** The `$defs` name of what `ref` points to, copied there the first time (named before, so recursion ends there). */
function definitionOf(ref: string, walk: Walk, defs: Defs): string {
  const known = defs.names.get(ref);
  if (known !== undefined) return known;
  const base = (ref.split('/').pop() || 'schema').replace(/[^\w.-]/g, '_');
  let name = base;
  for (let suffix = 2; defs.taken.has(name); suffix++) name = `${base}_${suffix}`;
  defs.names.set(ref, name);
  defs.taken.add(name);
  defs.schemas[name] = copyBounded(resolveRef(walk.document, ref), 'schema', { ...walk, onPath: new Map() }, 0);
  return name;
}

function childKind(kind: Kind, key: string): Kind {
  if (kind !== 'schema') return kind === 'map' ? 'schema' : 'data';
  return SCHEMA_MAPS.has(key) ? 'map' : DATA.has(key) ? 'data' : 'schema';
}
