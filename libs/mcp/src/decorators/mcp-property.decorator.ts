import 'reflect-metadata';
import { MCP_PROPERTY_METADATA } from '../mcp.constants.js';

/**
 * Schema hints for one DTO property; they only describe the property to the model and never change validation
 * (class-validator stays the authority on what is accepted).
 *
 * @example
 * const options: McpPropertyOptions = { description: 'City name', examples: ['Paris'], nullable: true };
 */
export interface McpPropertyOptions {
  /** Sentence the model reads to understand the property. */
  description?: string;
  /** Short human-readable label. */
  title?: string;
  /** Sample values, emitted as the `examples` keyword. */
  examples?: unknown[];
  /** Adds `null` to the property's type, for rules class-validator cannot expose (e.g. `@ValidateIf`). */
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
  const recorded: Readonly<McpPropertyOptions> = Object.freeze({ ...options });
  return (target: object, propertyKey: string | symbol): void => {
    Reflect.defineMetadata(MCP_PROPERTY_METADATA, recorded, target, propertyKey);
  };
}
