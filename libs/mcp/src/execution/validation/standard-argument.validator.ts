import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { McpStandardSchema } from '../../core/standard-schema.js';
import type { PlanFailure } from './validation-plan.compiler.js';
import type { ArgumentValidation, McpArgumentValidator } from './argument-validator.interface.js';
import { refusal, unknownProperty } from './refusal.js';

/** What a Standard Schema says of a value: the value it parsed (defaults, coercions, transforms), or its failures. */
export type StandardOutcome = { valid: true; value: unknown } | { valid: false; failures: PlanFailure[] };

/**
 * Validates `value` with the schema's own `~standard.validate` (which may answer with a promise), its issues
 * grouped by path as class-validator's are: `location.city`, `stops.0.name`; an issue about the value as a whole
 * has the empty path.
 */
export async function validateStandard(schema: McpStandardSchema, value: unknown): Promise<StandardOutcome> {
  const result = await schema['~standard'].validate(value);
  if (!result.issues) return { valid: true, value: result.value };
  const reasons = new Map<string, string[]>();
  for (const issue of result.issues) {
    const path = issuePath(issue);
    const list = reasons.get(path) ?? [];
    list.push(String(issue.message));
    reasons.set(path, list);
  }
  // A vendor that reports a failure without issues still refuses: the value is not what the schema describes.
  if (reasons.size === 0) reasons.set('', ['is invalid']);
  return { valid: false, failures: [...reasons].map(([path, list]) => ({ path, reasons: list })) };
}

/**
 * The validator of arguments declared by a Standard Schema (`@McpTool({ input })`, `args` of a registration, a
 * prompt's): the parsed value the tool receives (defaults, coercions, transforms), or the refusal a
 * `VALIDATION_ERROR` carries, shaped as a DTO's is.
 */
export class McpStandardArgumentValidator implements McpArgumentValidator {
  constructor(
    private readonly schema: McpStandardSchema,
    /** With a closed advertised schema: the only arguments allowed, any other refused as a DTO tool refuses it. */
    private readonly declared?: ReadonlySet<string>,
  ) {}

  async validate(raw: Record<string, unknown>): Promise<ArgumentValidation> {
    const declared = this.declared;
    if (declared) {
      const unknown = Object.keys(raw).filter((key) => !declared.has(key));
      if (unknown.length > 0) return refusal(unknown.map(unknownProperty));
    }
    const outcome = await validateStandard(this.schema, raw);
    if (!outcome.valid) return refusal(outcome.failures);
    // An input schema is an object schema (checked at boot); a transform that returns something else is passed on.
    return { valid: true, value: outcome.value as object };
  }

  /** The parsed value exists only as `~standard.validate` returns it: a job's arguments are parsed again. */
  revive(accepted: Record<string, unknown>): Promise<ArgumentValidation> {
    return this.validate(accepted);
  }
}

/** `['stops', 0, 'name']` or `[{ key: 'stops' }, …]` → `stops.0.name`. */
function issuePath(issue: StandardSchemaV1.Issue): string {
  if (!issue.path) return '';
  return issue.path.map((segment) => String(typeof segment === 'object' && segment !== null ? segment.key : segment)).join('.');
}
