/**
 * What a tool's validator decides about arguments: the value the tool receives (a DTO instance, a Standard Schema's
 * parsed value, the arguments as sent), or the refusal a `VALIDATION_ERROR` carries (`refusal()`: one shape for
 * every source).
 */
export type ArgumentValidation = { valid: true; value: object } | { valid: false; fields: string[]; message: string };

/**
 * The one argument validator of a tool, built by its source at boot: a DTO's (class-validator, its plan compiled on
 * the first call), a Standard Schema's, a compiled JSON Schema's (hand-written, OpenAPI, upstream), a route's, or one
 * for a tool without arguments. The call pipeline calls it without knowing which it is.
 */
export interface McpArgumentValidator {
  /** Checks a call's arguments: a value, not a promise, when the check is synchronous (no tick per call). */
  validate(raw: Record<string, unknown>): ArgumentValidation | Promise<ArgumentValidation>;
  /**
   * The value a job's worker hands the tool, from the raw arguments `validate` accepted when the job was queued (they
   * travel as JSON, which keeps no class or Date): rebuilt as `validate` built it, checked again only where the value
   * exists only as a check returns it (a Standard Schema's defaults and transforms).
   */
  revive(accepted: Record<string, unknown>): ArgumentValidation | Promise<ArgumentValidation>;
}

/** The arguments as sent: what the tool receives from a validator that only checks. */
export function acceptedAsSent(raw: Record<string, unknown>): ArgumentValidation {
  return { valid: true, value: raw };
}
