/**
 * A boot error code: `MCP_ERR_`, the area, what went wrong (`MCP_ERR_TOOL_NAME_DUPLICATE`, `MCP_ERR_OPTION_INVALID`).
 * Stable: `docs/errors.md` lists each with its fix.
 * @publicApi
 */
export type McpBootErrorCode = `MCP_ERR_${string}`;

/** A boot error ready to throw: what `new McpConfigurationError(…)` takes. @publicApi */
export interface McpBootErrorDetail {
  readonly code: McpBootErrorCode;
  /** Names the place (`WeatherService#getWeather`, the option) and the fix. */
  readonly message: string;
}

/**
 * One entry of an area's catalogue: the stable code, the builder of its text and its fix; `docs/errors.md` is generated
 * from these (`npm run docs:errors`), each message built with `<name>` for each argument.
 */
export interface McpBootErrorEntry<A extends unknown[] = never[], C extends string = McpBootErrorCode> {
  readonly code: C;
  readonly message: (...args: A) => string;
  /** What to do about it, in markdown: the page's Fix column. */
  readonly fix: string;
  /**
   * What the page gives the builder where an argument shown as `<parameter name>` would not do, by parameter name: a
   * name (`{ key: 'name' }` shows `<name>`; one holding `<` is shown as written: `'tools.transforms[<i>]'`), or the
   * argument itself where it is not text (`{ known: ['<a>', '<b>'] }`).
   */
  readonly shown?: Readonly<Record<string, unknown>>;
  /** Said after the message on the page, in markdown: its other forms (`(or \`no arguments\`)`). */
  readonly variants?: string;
}

/** An area's entries, each with its own arguments; any entry (an error's or a warning's), or any builder. */
export type BootEntries<C extends string = McpBootErrorCode> = Record<string, McpBootErrorEntry<any, C>>; // eslint-disable-line @typescript-eslint/no-explicit-any -- each entry has its own arguments
export type AnyBootErrorEntry = BootEntries<string>[string];
export type AnyBootErrorBuilder = CodedBuilders<BootEntries<string>, unknown>[string];

/** Each entry as its site calls it, building `R` from its text; `code` and `entry` let the catalogue list it. */
type CodedBuilders<T extends BootEntries<string>, R> = {
  readonly [K in keyof T]: ((...args: Parameters<T[K]['message']>) => R) & { readonly code: T[K]['code']; readonly entry: T[K] };
};

/**
 * An area's boot errors (fastify's `FST_ERR_*` in one `errors.js` is the model): each entry a code and a message
 * builder; the result keeps the entries' names, so a throw site reads
 * `throw new McpConfigurationError(McpMessages.duplicateToolName(name, first, second))`.
 */
export function bootErrors<const T extends BootEntries>(entries: T) {
  return codedBuilders(entries, (code, message): McpBootErrorDetail => ({ code, message }));
}

/** Each entry as a builder of `render(code, text)`, carrying its `code`: the boot errors and the boot warnings. */
export function codedBuilders<T extends BootEntries<string>, R>(
  entries: T,
  render: (code: T[keyof T]['code'], message: string) => R,
): CodedBuilders<T, R> {
  const builders = Object.entries(entries).map(([name, entry]) => {
    const build = (...args: unknown[]): R => render(entry.code, entry.message(...args));
    return [name, Object.assign(build, { code: entry.code, entry })] as const;
  });
  return Object.fromEntries<unknown>(builders) as CodedBuilders<T, R>;
}
