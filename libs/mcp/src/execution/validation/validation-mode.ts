import { Logger } from '@nestjs/common';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { JsonSchema } from '../../core/json-schema.types.js';
import { compileNullCheck, type NullCheck } from './null-check.compiler.js';
import { compileValidationPlan, type ValidationPlan } from './validation-plan.compiler.js';
import { readValidationMetadata } from './validation-metadata.reader.js';
import type { McpClassRef } from '../../core/class-ref.js';

/** How a tool's arguments are validated, decided once per DTO at boot. */
export interface ArgumentValidationMode {
  /** True when the DTO has no async rules, so `validateSync` is equivalent. */
  readonly sync: boolean;
  /** Finds the nulls of the arguments and what the advertised inputSchema says about each. */
  readonly nulls?: NullCheck;
  /**
   * The DTO's validation compiled at boot: the same instance and failures as class-transformer + class-validator,
   * without their per-call work. Absent when the DTO uses something the plan does not reproduce.
   */
  readonly plan?: ValidationPlan;
}

const logger = new Logger('McpModule');

/**
 * The validation mode of a DTO whose advertised inputSchema is `inputSchema`: the server's null check is compiled
 * from that same schema, so the two cannot disagree about `null`. With `site` (the tool's place, e.g.
 * `WeatherTools#getWeather`), one verbose line says which path its calls take and why.
 */
export function argumentValidationMode(type: McpClassRef, inputSchema: JsonSchema, site?: string): ArgumentValidationMode {
  const compiled = compileValidationPlan(type);
  // Per-tool detail: verbose only, the boot says one summary line per server (McpComponentSummary).
  if (site !== undefined) {
    logger.verbose(
      compiled.plan
        ? `${site}: arguments validated by the plan compiled from ${type.name}`
        : `${site}: arguments validated by class-transformer + class-validator (${compiled.reason})`,
    );
  }
  return { sync: canValidateSync(type), nulls: compileNullCheck(inputSchema), ...(compiled.plan && { plan: compiled.plan }) };
}

/**
 * Whether a DTO can be validated synchronously (`validateSync` skips async rules): no async custom constraint, and no
 * nested DTO, whose class is only known per value.
 */
export function canValidateSync(type: McpClassRef): boolean {
  const storage = getMetadataStorage();
  // The reader gives class-validator's own list without its scan of every registered class (quadratic at boot).
  for (const rule of readValidationMetadata(type)) {
    if (rule.type === ValidationTypes.NESTED_VALIDATION) return false;
    if (rule.type === ValidationTypes.CUSTOM_VALIDATION && rule.constraintCls) {
      if (storage.getTargetValidatorConstraints(rule.constraintCls).some((constraint) => constraint.async)) return false;
    }
  }
  return true;
}
