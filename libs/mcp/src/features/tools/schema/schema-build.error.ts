/**
 * Thrown at boot when a DTO cannot be turned into a JSON Schema at all (as opposed to a decorator that is
 * merely unsupported, which is skipped with a debug message). The message names `ClassName.property` and the fix.
 *
 * @example
 * try {
 *   factory.forClass(CreateOrderDto);
 * } catch (error) {
 *   if (error instanceof McpSchemaError) console.error(error.className, error.propertyName, error.message);
 * }
 */
export class McpSchemaError extends Error {
  override readonly name = 'McpSchemaError';

  /**
   * @param className name of the DTO class that holds the property
   * @param propertyName the property whose schema cannot be built
   * @param reason what is wrong and how to fix it
   *
   * @example
   * throw new McpSchemaError('CreateOrderDto', 'address', 'add @Type(() => AddressDto)');
   */
  constructor(
    readonly className: string,
    readonly propertyName: string,
    reason: string,
  ) {
    super(`Cannot build the JSON Schema of ${className}.${propertyName}: ${reason}`);
  }
}
