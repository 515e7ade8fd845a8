import 'reflect-metadata';
import { MCP_PROPERTY_METADATA } from '../../../core/mcp.constants.js';

/**
 * Schema hints for one DTO property; they describe the property to the model. Only `nullable` changes validation:
 * the server accepts `null` exactly where the advertised schema does (class-validator decides everything else).
 */
export interface McpPropertyOptions {
  /** Sentence the model reads to understand the property. */
  description?: string;
  /** Short human-readable label. */
  title?: string;
  /** Sample values, emitted as the `examples` keyword. */
  examples?: unknown[];
  /**
   * Adds `null` to the property's type, and the server then accepts `null` for it (its other rules are skipped for
   * that value). Without it, `null` is refused wherever the schema states a type, even with `@IsOptional()`.
   */
  nullable?: boolean;
  /** Overrides the `format` keyword inferred from the validators (e.g. `'date'`). */
  format?: string;
  /** Marks the property `deprecated: true`. */
  deprecated?: boolean;
}

/**
 * Adds a description, title, examples, nullability, format or deprecation to the JSON Schema generated for a
 * property. The property still needs a class-validator decorator to be part of the schema.
 *
 * @example
 * class SearchDto {
 *   @McpProperty({ description: 'Free-text query', examples: ['weather in Paris'] })
 *   @IsString()
 *   query: string;
 * }
 */
export function McpProperty(options: McpPropertyOptions): PropertyDecorator {
  const recorded = Object.freeze({ ...options });
  return (target, propertyKey) => Reflect.defineMetadata(MCP_PROPERTY_METADATA, recorded, target, propertyKey);
}
