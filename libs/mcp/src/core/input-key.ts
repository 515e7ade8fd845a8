/** Where `withMcpInputKey` records the key: a symbol, so it never reaches the wire or a 2025-era client. */
export const MCP_INPUT_KEY = Symbol.for('nest-mcp/inputKey');

/**
 * Names the input request of `context.elicit()` or `sample()` in a 2026-07-28 `input_required` result (default
 * `elicit-<n>`, `sample-<n>`, `roots-<n>`); unique within one request, ignored by older revisions.
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
