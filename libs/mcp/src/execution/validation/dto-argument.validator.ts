import type { JsonSchema } from '../../core/json-schema.types.js';
import type { ArgumentValidation, McpArgumentValidator } from './argument-validator.interface.js';
import { toInstance, validateArguments } from './dto-validation.js';
import { argumentValidationMode, type ArgumentValidationMode } from './validation-mode.js';

type DtoClass = new (...args: never[]) => object;

/**
 * The validator of arguments declared by a class-validator DTO: the DTO instance the tool receives, or the refusal.
 * With the advertised `inputSchema`, its mode (sync or async, the null check, the compiled plan) is decided on the
 * tool's first call rather than at boot: a catalog of 10,000 tools would otherwise hold 10,000 compiled plans (about
 * 8 KiB each) most of which never run; compiling reports no boot error (a DTO the plan cannot reproduce takes the
 * class-validator path), so nothing is lost by waiting. Without one (a prompt's DTO): every rule, on the async path.
 */
export class McpDtoArgumentValidator implements McpArgumentValidator {
  private mode?: ArgumentValidationMode;

  constructor(
    readonly type: DtoClass,
    private readonly inputSchema?: JsonSchema,
    /** The tool's place (`WeatherTools#getWeather`): one verbose line says which path its calls take and why. */
    private readonly site?: string,
  ) {}

  validate(raw: Record<string, unknown>): ArgumentValidation | Promise<ArgumentValidation> {
    return validateArguments(
      this.type,
      raw,
      this.inputSchema && (this.mode ??= argumentValidationMode(this.type, this.inputSchema, this.site)),
    );
  }

  /** A job's accepted arguments: the instance is rebuilt as validation built it, without validating a second time. */
  revive(accepted: Record<string, unknown>): ArgumentValidation {
    return { valid: true, value: toInstance(this.type, accepted) };
  }
}
