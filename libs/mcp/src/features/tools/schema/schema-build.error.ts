/**
 * Thrown at boot when a DTO cannot be turned into a JSON Schema at all (as opposed to a decorator that is
 * merely unsupported, which is skipped with a debug message). The message names `ClassName.property` and the fix.
 */
export class McpSchemaError extends Error {
  override readonly name = 'McpSchemaError';

  constructor(
    readonly className: string,
    readonly propertyName: string,
    reason: string,
  ) {
    super(`Cannot build the JSON Schema of ${className}.${propertyName}: ${reason}`);
  }
}
