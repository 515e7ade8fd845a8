/** Where `withMcpInputKey` records the key: a symbol, so it never reaches the wire or a 2025-era client. */
export const MCP_INPUT_KEY = Symbol.for('nest-mcp/inputKey');

/**
 * Names the input request that `context.elicit()` or `context.sample()` makes in a 2026-07-28 request: the key
 * the `input_required` result lists it under and the client answers it with (default: `elicit-<n>` /
 * `sample-<n>` / `roots-<n>`, by call order). Keys must be unique within one request. Older revisions ignore it.
 * @publicApi
 * @example
 * const answer = await context.elicit(withMcpInputKey('user_name', { message: 'What is your name?', requestedSchema }));
 */
export function withMcpInputKey<T extends object>(key: string, params: T): T {
  if (typeof key !== 'string' || key === '') throw new TypeError('withMcpInputKey: the key must be a non-empty string');
  Object.defineProperty(params, MCP_INPUT_KEY, { value: key, enumerable: false, configurable: true });
  return params;
}

/** The key a request's params were given with `withMcpInputKey`, if any. */
export function inputKeyOf(params: object): string | undefined {
  const key = (params as Record<symbol, unknown>)[MCP_INPUT_KEY];
  return typeof key === 'string' ? key : undefined;
}
