import { plainToInstance } from 'class-transformer';
import { validate, validateSync, type ValidationError } from 'class-validator';

/** Outcome of validating `tools/call` arguments against a tool's DTO. */
export type ArgumentValidation =
  | { valid: true; value: object }
  | { valid: false; fields: string[]; message: string };

/** The checks applied on every call (seed 002: never trust the model's arguments). */
const VALIDATOR_OPTIONS = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true } as const;

/**
 * Re-validates arguments on the server: class-transformer builds the DTO (keeping property defaults), then
 * class-validator checks it with whitelist and forbidNonWhitelisted, so unknown properties are errors too.
 */
export async function validateArguments(type: new (...args: never[]) => object, raw: Record<string, unknown>, sync = false): Promise<ArgumentValidation> {
  const value = plainToInstance(type as new () => object, raw) as Record<string, unknown>;
  // Class fields are own properties (ES2022+ define semantics) even when unset; one the caller did not send and
  // that holds nothing must not be taken for an unknown property by forbidNonWhitelisted.
  for (const key of Object.keys(value)) if (value[key] === undefined && !(key in raw)) delete value[key];
  // The sync path saves a promise chain per rule; it is chosen at boot only for DTOs without async rules.
  const errors = sync ? validateSync(value, VALIDATOR_OPTIONS) : await validate(value, VALIDATOR_OPTIONS);
  if (errors.length === 0) return { valid: true, value };
  const failures = flattenErrors(errors);
  return {
    valid: false,
    fields: failures.map((failure) => failure.path),
    message: `Invalid arguments: ${failures.map((failure) => `${failure.path}: ${failure.reasons.join('; ')}`).join(', ')}`,
  };
}

/** Nested errors (ValidateNested, arrays) become dotted paths: `location.city`, `stops.0.name`. */
function flattenErrors(errors: ValidationError[], prefix = ''): { path: string; reasons: string[] }[] {
  const result: { path: string; reasons: string[] }[] = [];
  for (const error of errors) {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    if (error.constraints) result.push({ path, reasons: Object.values(error.constraints) });
    if (error.children?.length) result.push(...flattenErrors(error.children, path));
  }
  return result;
}
