import type { StandardJSONSchemaV1 } from '@standard-schema/spec';
import { vendorOf, type McpStandardSchema } from '../../../core/standard-schema.js';
import { isPlainObject } from '../../../core/plain-object.js';
import type { JsonSchema } from '../../../core/json-schema.types.js';

/** Which side of a validator's transforms a schema describes: what callers send, or what a tool returns. */
export type StandardSchemaSide = 'input' | 'output';

/** A vendor's own converter, once its module is loaded. */
type VendorConverter = (schema: McpStandardSchema, side: StandardSchemaSide) => unknown;

/**
 * Converters of vendors that predate the Standard JSON Schema extension (`~standard.jsonSchema`): each an optional
 * package, imported at boot only when a schema of that vendor needs it, so none is a dependency of the library.
 * The specifiers are variables so that neither TypeScript nor a bundler ties the library to the packages.
 */
const VENDOR_CONVERTERS: Readonly<Record<string, () => Promise<VendorConverter>>> = {
  valibot: async () => {
    const specifier = '@valibot/to-json-schema';
    const { toJsonSchema } = (await import(specifier)) as { toJsonSchema: (schema: unknown, config: object) => unknown };
    return (schema, side) => toJsonSchema(schema, { target: 'draft-2020-12', typeMode: side });
  },
  zod: async () => {
    const specifier = 'zod';
    const { toJSONSchema } = (await import(specifier)) as { toJSONSchema: (schema: unknown, params: object) => unknown };
    return (schema, side) => toJSONSchema(schema, { target: 'draft-2020-12', io: side });
  },
};

/** The converters loaded so far, by vendor: module imports, the same for every app of the process. */
const loaded = new Map<string, VendorConverter>();

/** Why a converter could not be loaded, by vendor (the package is not installed). */
const missing = new Map<string, string>();

/**
 * Loads, once per process, the vendor converters that `schemas` need: those of vendors without `~standard.jsonSchema`
 * nor a `toJsonSchema()` method of their own. Called at boot, before the tools are built; the request path never
 * converts a schema.
 */
export async function loadStandardConverters(schemas: Iterable<McpStandardSchema>): Promise<void> {
  const vendors = new Set<string>();
  for (const schema of schemas) {
    if (nativeConverter(schema) === undefined) vendors.add(schema['~standard'].vendor);
  }
  await Promise.all(
    [...vendors]
      .filter((vendor) => !loaded.has(vendor) && Object.hasOwn(VENDOR_CONVERTERS, vendor))
      .map(async (vendor) => {
        try {
          loaded.set(vendor, await VENDOR_CONVERTERS[vendor]());
        } catch (error) {
          missing.set(vendor, error instanceof Error ? error.message : String(error));
        }
      }),
  );
}

/**
 * The JSON Schema (2020-12) of one side of a Standard Schema: from the Standard JSON Schema extension where the
 * vendor implements it (Zod 4, ArkType), else from the vendor's own converter (Valibot's `@valibot/to-json-schema`
 * loaded by {@link loadStandardConverters}, ArkType's `toJsonSchema()`). Throws an Error saying why when there is none
 * or it fails; the caller names the tool.
 */
export function standardJsonSchema(schema: McpStandardSchema, side: StandardSchemaSide): JsonSchema {
  const vendor = vendorOf(schema);
  const convert = nativeConverter(schema) ?? loaded.get(vendor);
  if (!convert) {
    const known = Object.hasOwn(VENDOR_CONVERTERS, vendor);
    const why = missing.get(vendor);
    throw new Error(
      known && why
        ? `${vendor}'s JSON Schema converter could not be loaded (${why})`
        : known
          ? `${vendor}'s JSON Schema converter was not loaded at boot (it is loaded when a decorated tool or prompt uses ${vendor})`
          : `${vendor} schemas have no JSON Schema converter (neither ~standard.jsonSchema nor toJsonSchema())`,
    );
  }
  let converted: unknown;
  try {
    converted = convert(schema, side);
  } catch (error) {
    throw new Error(`${vendor}'s converter failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (!isPlainObject(converted)) throw new Error(`${vendor}'s converter returned no JSON Schema object`);
  // A fresh copy: the descriptor is ours to shape (transforms), whatever the vendor caches.
  return structuredClone(converted);
}

/** The converter a schema carries itself: the Standard JSON Schema extension, or ArkType's `toJsonSchema()`. */
function nativeConverter(schema: McpStandardSchema): VendorConverter | undefined {
  const jsonSchema = (schema['~standard'] as Partial<StandardJSONSchemaV1.Props>).jsonSchema;
  if (typeof jsonSchema?.input === 'function' && typeof jsonSchema.output === 'function') {
    return (_schema, side) => jsonSchema[side]({ target: 'draft-2020-12' });
  }
  const own = (schema as { toJsonSchema?: unknown }).toJsonSchema;
  if (typeof own === 'function') return () => (own as () => unknown).call(schema);
  return undefined;
}
