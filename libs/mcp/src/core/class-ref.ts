/** A class as a value, as class-validator, class-transformer and Nest key metadata: the one place `Function` is named. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export type McpClassRef = Function;
