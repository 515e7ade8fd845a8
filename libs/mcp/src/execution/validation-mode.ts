import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { JsonSchema } from '../features/tools/schema/json-schema.types.js';
import { compileNullCheck, type NullCheck } from '../features/tools/schema/null-check.compiler.js';
import type { McpClassRef } from '../core/class-ref.js';

/**
 * How a tool's arguments are validated, decided once per DTO at boot.
 *
 * @example
 * const mode: ArgumentValidationMode = argumentValidationMode(GetWeatherDto, descriptor.inputSchema);
 */
export interface ArgumentValidationMode {
  /** True when the DTO has no async rules, so `validateSync` is equivalent. */
  readonly sync: boolean;
  /** Finds the nulls of the arguments and what the advertised inputSchema says about each. */
  readonly nulls?: NullCheck;
}

/**
 * The validation mode of a DTO whose advertised inputSchema is `inputSchema`: the server's null check is compiled
 * from that same schema, so the two cannot disagree about `null`.
 */
export function argumentValidationMode(type: McpClassRef, inputSchema: JsonSchema): ArgumentValidationMode {
  return { sync: canValidateSync(type), nulls: compileNullCheck(inputSchema) };
}

/**
 * Whether a DTO can be validated synchronously: true when none of its rules is an async custom constraint.
 * `validateSync` skips async rules, so any doubt (a nested DTO, whose class is only known per value) keeps the
 * async path. Decided once per DTO at boot.
 */
export function canValidateSync(type: McpClassRef): boolean {
  const storage = getMetadataStorage();
  for (const rule of storage.getTargetValidationMetadatas(type, '', true, false)) {
    if (rule.type === ValidationTypes.NESTED_VALIDATION) return false;
    if (rule.type === ValidationTypes.CUSTOM_VALIDATION && rule.constraintCls) {
      if (storage.getTargetValidatorConstraints(rule.constraintCls).some((constraint) => constraint.async)) return false;
    }
  }
  return true;
}
