/**
 * The class a tool is declared in, for `{ provider }` selectors (its decorated methods' tools).
 * @publicApi
 */
export type McpToolProviderClass = abstract new (...args: never[]) => unknown;

/**
 * One way to pick tools: a name (`get_weather`), a glob over names (`billing_*`, `report_?`), or every tool a class
 * declares (`{ provider: BillingTools }`). A selector that picks no tool fails the boot, so a typo cannot go unseen.
 * @publicApi
 */
export type McpToolSelector = string | { readonly provider: McpToolProviderClass };

/**
 * Tools a transformation applies to: one selector or several (a tool any of them picks).
 * @publicApi
 */
export type McpToolSelection = McpToolSelector | readonly McpToolSelector[];

/**
 * A change to the tools as clients see them, made without touching the tools' code: listed in
 * `McpModule.forRoot({ tools: { transforms } })` and built with {@link renameTool}, {@link describeTool}, {@link hideArguments},
 * {@link renameArguments} and {@link namespaceTools}. Applied once at boot, in list order (a transformation picks
 * tools by their names after the ones before it), to every tool the app declares and to upstream servers' tools
 * (option `upstreams`) as they are listed; tools registered at runtime (`McpToolRegistry.register()`) are not
 * transformed.
 * @publicApi
 */
export type McpToolTransformation =
  | { readonly kind: 'renameTool'; readonly tool: string; readonly name: string }
  | { readonly kind: 'describeTool'; readonly tools: McpToolSelection; readonly description: string | ((current: string) => string) }
  | { readonly kind: 'hideArguments'; readonly tools: McpToolSelection; readonly arguments: Readonly<Record<string, unknown>> }
  | { readonly kind: 'renameArguments'; readonly tools: McpToolSelection; readonly names: Readonly<Record<string, string>> }
  | {
      readonly kind: 'namespaceTools';
      readonly namespace: string;
      readonly include?: McpToolSelection;
      readonly exclude?: McpToolSelection;
    };

/**
 * Shows a tool under another name; its guards, scopes, idempotency and jobs are unchanged.
 * @publicApi
 * @example McpModule.forRoot({ ..., tools: { transforms: [renameTool('get_weather', 'weather_now')] } })
 */
export function renameTool(tool: string, name: string): McpToolTransformation {
  return { kind: 'renameTool', tool, name };
}

/**
 * Rewrites the description of the tools picked: a new text, or a function of the current one.
 * @publicApi
 * @example describeTool('weather_*', (text) => `${text} Data from the national weather service.`)
 */
export function describeTool(tools: McpToolSelection, description: string | ((current: string) => string)): McpToolTransformation {
  return { kind: 'describeTool', tools, description };
}

/**
 * Hides arguments from callers: they leave the tool's `inputSchema`, and every call gets the fixed value given here
 * (a caller's own value for a hidden argument is replaced). `undefined` hides an optional argument without a value;
 * a required one needs a value (a boot error otherwise). The tool still validates its full arguments, fixed
 * values included.
 * @publicApi
 * @example hideArguments('search_tickets', { tenant: 'acme', debug: undefined })
 */
export function hideArguments(tools: McpToolSelection, values: Readonly<Record<string, unknown>>): McpToolTransformation {
  return { kind: 'hideArguments', tools, arguments: values };
}

/**
 * Shows arguments under other names (`{ q: 'query' }`: callers send `query`, the tool gets `q`); a failing field is
 * reported under the name the caller used.
 * @publicApi
 * @example renameArguments('search', { q: 'query' })
 */
export function renameArguments(tools: McpToolSelection, names: Readonly<Record<string, string>>): McpToolTransformation {
  return { kind: 'renameArguments', tools, names };
}

/**
 * Prefixes tool names with `<namespace>_` (`search` becomes `billing_search`): every tool, or those `include` picks
 * and `exclude` does not.
 * @publicApi
 * @example namespaceTools('billing', { include: { provider: BillingTools } })
 */
export function namespaceTools(
  namespace: string,
  options: { readonly include?: McpToolSelection; readonly exclude?: McpToolSelection } = {},
): McpToolTransformation {
  return { kind: 'namespaceTools', namespace, ...options };
}
