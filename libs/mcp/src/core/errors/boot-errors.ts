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

/** An entry as a throw site calls it; `code` and `entry` let the catalogue list it. */
export type McpBootErrorBuilder<A extends unknown[]> = ((...args: A) => McpBootErrorDetail) & {
  readonly code: McpBootErrorCode;
  readonly entry: McpBootErrorEntry<A>;
};

/** Any entry (an error's or a warning's), or any builder: each has its own arguments. */
export type AnyBootErrorEntry = McpBootErrorEntry<any, string>; // eslint-disable-line @typescript-eslint/no-explicit-any -- each entry has its own arguments
export type AnyBootErrorBuilder = McpBootErrorBuilder<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- each entry has its own arguments

type Entries = Record<string, McpBootErrorEntry<any>>; // eslint-disable-line @typescript-eslint/no-explicit-any -- each entry has its own arguments
type Builders<T extends Entries> = { readonly [K in keyof T]: McpBootErrorBuilder<Parameters<T[K]['message']>> };

/**
 * An area's boot errors (fastify's `FST_ERR_*` in one `errors.js` is the model): each entry a code and a message
 * builder; the result keeps the entries' names, so a throw site reads
 * `throw new McpConfigurationError(McpMessages.duplicateToolName(name, first, second))`.
 */
export function bootErrors<const T extends Entries>(entries: T): Builders<T> {
  return codedBuilders(entries, (code, message): McpBootErrorDetail => ({ code: code as McpBootErrorCode, message })) as Builders<T>;
}

/** Each entry as a builder of `render(code, text)`, carrying its `code`: the boot errors and the boot warnings. */
export function codedBuilders<R>(entries: Record<string, AnyBootErrorEntry>, render: (code: string, message: string) => R): unknown {
  const builders = Object.entries(entries).map(([name, { code, message }]) => {
    const build = (...args: unknown[]): R => render(code, message(...args));
    return [name, Object.assign(build, { code, entry: entries[name] })] as const;
  });
  return Object.fromEntries(builders);
}
