import Ajv2020Module, { type Ajv2020 as Ajv, type ValidateFunction as SchemaValidator } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { JsonSchema } from '../../../core/json-schema.types.js';
import {
  acceptedAsSent,
  type ArgumentValidation,
  type McpArgumentValidator,
} from '../../../execution/validation/argument-validator.interface.js';
import { ANY_ARGUMENTS_VALIDATOR } from '../../../execution/validation/fixed-argument.validators.js';
import { refusal } from '../../../execution/validation/refusal.js';
import type { PlanFailure } from '../../../execution/validation/validation-plan.compiler.js';
import { withoutPatterns } from './foreign-schema.js';

/** ajv ships CommonJS; under ESM its class is the default export's `default`. */
const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module) as unknown as new (options: object) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (ajv: Ajv) => void;

/**
 * Compiles hand-written JSON Schemas (dialect 2020-12, the MCP default) once at boot, for tools that declare
 * `inputSchema` instead of a DTO. One ajv instance per module instance.
 */
export class RawSchemaCompiler {
  private readonly ajv = new Ajv2020({ allErrors: true, strict: false });

  constructor() {
    addFormats(this.ajv);
  }

  /**
   * Throws (with ajv's reason) when the schema itself is invalid. `transient`: a schema of a source that changes
   * (an upstream's) is not kept in ajv's cache, which holds every schema compiled until the instance goes.
   * `foreign`: another party's schema (an upstream's, an OpenAPI document's), checked without its regular
   * expressions ({@link withoutPatterns}); with `patternProperties` nothing is checked here.
   */
  compile(schema: JsonSchema, { transient = false, foreign = false } = {}): McpArgumentValidator {
    if (!foreign) return new JsonSchemaArgumentValidator(this.compiled(schema, transient));
    this.compiled(schema, transient);
    const checked = withoutPatterns(schema);
    return checked === undefined ? ANY_ARGUMENTS_VALIDATOR : new JsonSchemaArgumentValidator(this.compiled(checked, transient));
  }

  private compiled(schema: JsonSchema, transient: boolean): SchemaValidator {
    try {
      return this.ajv.compile(schema);
    } finally {
      if (transient) this.ajv.removeSchema(schema);
    }
  }
}

/** The validator of a compiled JSON Schema: the arguments as sent, or the refusal naming ajv's errors by path. */
class JsonSchemaArgumentValidator implements McpArgumentValidator {
  readonly revive = acceptedAsSent;

  constructor(private readonly check: SchemaValidator) {}

  validate(raw: Record<string, unknown>): ArgumentValidation {
    if (this.check(raw)) return acceptedAsSent(raw);
    // Grouped by path as a DTO's failures are: one refusal shape for every source of a schema.
    const reasons = new Map<string, string[]>();
    for (const error of this.check.errors ?? []) {
      const path = fieldOf(error.instancePath, error.params);
      reasons.set(path, [...(reasons.get(path) ?? []), reasonOf(error)]);
    }
    if (reasons.size === 0) reasons.set('', ['is invalid']);
    const failures: PlanFailure[] = [...reasons].map(([path, list]) => ({ path, reasons: list }));
    return refusal(failures);
  }
}

/** ajv's message, but an extra property's says so as a DTO's does (ajv: "must NOT have additional properties"). */
function reasonOf(error: { params: Record<string, unknown>; message?: string }): string {
  if (typeof error.params.additionalProperty === 'string') return `property ${error.params.additionalProperty} should not exist`;
  return error.message ?? 'is invalid';
}

/** `/address/street` → `address.street`; a missing or extra property names itself. */
function fieldOf(instancePath: string, params: Record<string, unknown>): string {
  const base = instancePath.split('/').filter(Boolean).join('.');
  const named = (params.missingProperty ?? params.additionalProperty) as string | undefined;
  return named ? (base ? `${base}.${named}` : named) : base;
}
