import 'reflect-metadata';
import { MCP_DTO_METADATA } from '../../../core/mcp.constants.js';

/** Class-level options of the JSON Schema generated for a DTO. */
export interface McpDtoOptions {
  /** `true` lets the schema accept unknown properties; the default is `false`, matching whitelist validation. */
  additionalProperties?: boolean;
  /** Description of the whole object. */
  description?: string;
  /** Short human-readable label of the object. */
  title?: string;
}

/**
 * Sets class-level schema options on a DTO: its description, title, and whether unknown properties are accepted.
 * Subclasses inherit the options unless they declare their own.
 *
 * @example
 * @McpDto({ description: 'A postal address', additionalProperties: true })
 * class AddressDto {
 *   @IsString()
 *   city: string;
 * }
 */
export function McpDto(options: McpDtoOptions): ClassDecorator {
  const recorded = Object.freeze({ ...options });
  return (target) => Reflect.defineMetadata(MCP_DTO_METADATA, recorded, target);
}
