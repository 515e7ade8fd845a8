import { plainToInstance } from 'class-transformer';
import { validate, validateSync, type ValidationError } from 'class-validator';
import type { NullFindings } from './null-check.compiler.js';
import type { PlanFailure as Failure } from './validation-plan.compiler.js';
import type { ArgumentValidationMode } from './validation-mode.js';
import type { ArgumentValidation } from './argument-validator.interface.js';
import { MAX_FAILURE_CHARACTERS, MAX_LISTED_FAILURES, refusal } from './refusal.js';
import { clientText, clientTextList } from '../../core/client-text.js';

/** The checks applied on every call (never trust the model's arguments). */
const VALIDATOR_OPTIONS = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true } as const;

/** Without a mode decided at boot (prompt arguments): every rule, on the async path, and no null check. */
const DEFAULT_MODE: ArgumentValidationMode = { sync: false };

const NO_NULLS: NullFindings = { refused: [], declared: [] };

type DtoClass = new (...args: never[]) => object;

/**
 * Re-validates arguments on the server: the null check compiled from the advertised schema, then class-transformer
 * and class-validator (whitelist, forbidNonWhitelisted), or the same answer from the DTO's compiled plan.
 */
export function validateArguments(
  type: DtoClass,
  raw: Record<string, unknown>,
  mode: ArgumentValidationMode = DEFAULT_MODE,
): ArgumentValidation | Promise<ArgumentValidation> {
  // The plan's answer, unless it leaves this input to class-transformer and class-validator.
  const planned = mode.plan?.(raw);
  const nulls = mode.nulls?.(raw) ?? NO_NULLS;
  if (planned) return decide(planned.value, planned.failures, nulls);
  const value = toInstance(type, raw);
  // The sync path saves a promise chain per rule; it is chosen at boot only for DTOs without async rules (which
  // `validateSync` would skip).
  if (mode.sync) return verdict(type, raw, value, validateSync(value, VALIDATOR_OPTIONS), nulls);
  return validate(value, VALIDATOR_OPTIONS).then((errors) => verdict(type, raw, value, errors, nulls));
}

/**
 * The DTO instance validation builds from `raw` (class-transformer, without validating): a job's worker rebuilds
 * the arguments its call's validation accepted with it.
 */
export function toInstance(type: DtoClass, raw: Record<string, unknown>): Record<string, unknown> {
  const value = plainToInstance(type as new () => object, raw) as Record<string, unknown>;
  // Class fields are own properties (ES2022+ define semantics) even when unset; one the caller did not send and
  // that holds nothing must not be taken for an unknown property by forbidNonWhitelisted.
  for (const key of Object.keys(value)) if (value[key] === undefined && !(key in raw)) delete value[key];
  return value;
}

/**
 * The schema decides about nulls: one it refuses is an error even where `@IsOptional()` let it through, and one it
 * declares (`@McpProperty({ nullable: true })`) is accepted even where a rule such as `@IsString()` rejects it.
 */
function verdict(
  type: DtoClass,
  raw: Record<string, unknown>,
  value: object,
  errors: ValidationError[],
  nulls: NullFindings,
): ArgumentValidation {
  if (errors.some(isUnknownValue)) return withoutRules(type, Object.keys(raw));
  return decide(value, flattenErrors(errors), nulls);
}

/** class-validator's answer (forbidUnknownValues) for a class without any rule: no property, no path to name. */
function isUnknownValue(error: ValidationError): boolean {
  return error.property === undefined && error.constraints?.unknownValue !== undefined;
}

/**
 * The refusal of a call to a tool whose DTO has no class-validator rule (the boot warned with
 * MCP_WARN_DTO_WITHOUT_RULES): it names the cause, where class-validator says "an unknown value was passed".
 */
function withoutRules(type: DtoClass, sent: readonly string[]): { valid: false; fields: string[]; message: string } {
  const unknown = sent.length > 0 ? ` (${clientTextList(sent, MAX_LISTED_FAILURES, MAX_FAILURE_CHARACTERS)})` : '';
  return {
    valid: false,
    fields: sent.slice(0, MAX_LISTED_FAILURES).map((key) => clientText(key)),
    message:
      `Invalid arguments: the DTO ${type.name} has no class-validator decorators, so every property is unknown${unknown}; ` +
      'the tool needs a rule on each property (@IsString(), @IsOptional(), …).',
  };
}

function decide(value: object, found: readonly Failure[], nulls: NullFindings): ArgumentValidation {
  if (found.length === 0 && nulls.refused.length === 0) return { valid: true, value };
  const decided = new Set([...nulls.refused, ...nulls.declared]);
  const failures: Failure[] = nulls.refused.map((path) => ({ path, reasons: [`${path} must not be null`] }));
  for (const failure of found) if (!decided.has(failure.path)) failures.push(failure);
  if (failures.length === 0) return { valid: true, value };
  return refusal(failures);
}

/** Nested errors (ValidateNested, arrays) become dotted paths: `location.city`, `stops.0.name`. */
function flattenErrors(errors: ValidationError[], prefix = ''): Failure[] {
  const result: Failure[] = [];
  for (const error of errors) {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    if (error.constraints) result.push({ path, reasons: Object.values(error.constraints) });
    if (error.children?.length) result.push(...flattenErrors(error.children, path));
  }
  return result;
}
