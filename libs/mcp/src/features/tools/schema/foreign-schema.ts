import type { JsonSchema } from '../../../core/json-schema.types.js';

/** Keywords whose value maps names to schemas (its keys are names, not keywords). */
const SCHEMA_MAPS = new Set(['properties', '$defs', 'definitions', 'dependentSchemas']);
/** Keywords whose value is data, copied as is. */
const DATA = new Set(['enum', 'const', 'default', 'examples']);

class HasPatternProperties extends Error {}

/**
 * Another party's schema (an upstream tool's, an OpenAPI document's) as this server checks arguments against it:
 * without its `pattern`s. A backtracking regular expression of theirs (`^(a+)+$`) run on a caller's string can hold
 * the event loop for seconds, every tenant's calls with it; the other party checks its own patterns. Undefined when
 * the schema has `patternProperties`, whose expressions decide which properties a schema applies to: it cannot be
 * checked here without them.
 */
export function withoutPatterns(schema: JsonSchema): JsonSchema | undefined {
  try {
    return stripped(schema) as JsonSchema;
  } catch (error) {
    if (error instanceof HasPatternProperties) return undefined;
    throw error;
  }
}

function stripped(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripped);
  if (typeof node !== 'object' || node === null) return node;
  const entries: [string, unknown][] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'patternProperties') throw new HasPatternProperties();
    if (key === 'pattern' && typeof value === 'string') continue;
    entries.push([
      key,
      DATA.has(key)
        ? value
        : SCHEMA_MAPS.has(key) && typeof value === 'object' && value !== null && !Array.isArray(value)
          ? Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, stripped(schema)]))
          : stripped(value),
    ]);
  }
  // fromEntries: an own "__proto__" key stays a key (an assignment would set the prototype).
  return Object.fromEntries(entries);
}
