import type { StandardSchemaV1 } from '@standard-schema/spec';

/**
 * A validator of any library that implements Standard Schema (`~standard`): Zod 4, Valibot, ArkType, … Accepted
 * beside class-validator DTOs for tool input and output and for prompt arguments.
 * @publicApi
 * @example
 * const input: McpStandardSchema = z.object({ city: z.string().min(2) });
 */
export type McpStandardSchema<Input = unknown, Output = Input> = StandardSchemaV1<Input, Output>;

/** True for a Standard Schema validator: an object or function whose `~standard` holds version 1 and `validate`. */
export function isStandardSchema(value: unknown): value is McpStandardSchema {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  return (
    typeof props === 'object' &&
    props !== null &&
    (props as { version?: unknown }).version === 1 &&
    typeof (props as { validate?: unknown }).validate === 'function'
  );
}

/** The vendor a Standard Schema names (`zod`, `valibot`, `arktype`), for messages. */
export function vendorOf(schema: McpStandardSchema): string {
  const vendor = schema['~standard'].vendor;
  return typeof vendor === 'string' && vendor !== '' ? vendor : 'unknown vendor';
}
