/**
 * A class as a value, as class-validator, class-transformer and Nest key their metadata: by the constructor
 * function, whatever its parameters or abstractness. This is the one place the broad `Function` type is named.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export type McpClassRef = Function;
