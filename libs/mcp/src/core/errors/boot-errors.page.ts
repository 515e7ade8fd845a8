import type { AnyBootErrorBuilder, AnyBootErrorEntry } from './boot-errors.js';

/** One section of docs/errors.md's Boot errors: its title (the heading, whose anchor other pages link), text, entries. */
export interface McpBootErrorSection {
  readonly title: string;
  /** A paragraph between the heading and the table. */
  readonly intro?: string;
  readonly errors: readonly AnyBootErrorBuilder[];
}

/** The lines between these markers of docs/errors.md are written by `npm run docs:errors`, never by hand. */
export const BOOT_ERRORS_PAGE_START =
  '<!-- boot-errors:start (generated from libs/mcp/src/boot-error.catalogue.ts: npm run docs:errors) -->';
export const BOOT_ERRORS_PAGE_END = '<!-- boot-errors:end -->';

/**
 * The builder's parameter names, read from its source (the library keeps them: ES2023, no minifier); a parameter with
 * a default value is given only where `shown` names it (else the default shows), and those after it never.
 * Destructured or rest parameters have no name to show.
 */
export function parameterNames({ code, message, shown = {} }: AnyBootErrorEntry): string[] {
  const [, names = '', stop] = /^\(((?:\s*[\w$]+\s*,)*\s*[\w$]*)\s*([)=])/.exec(message.toString()) ?? [];
  if (stop === undefined)
    throw new Error(`${code}: the message builder must be an arrow function with plain parameters (no destructuring or rest)`);
  const list = names.split(',').map((name) => name.trim());
  return stop === '=' && !(list.at(-1)! in shown) ? list.slice(0, -1) : list.filter(Boolean);
}

/** The message with `<name>` for each argument, or what `shown` gives for it (a name holding `<` as written). */
export function shownMessage(entry: AnyBootErrorEntry): string {
  const { shown = {} } = entry;
  const args = parameterNames(entry).map((name) => (name in shown ? shown[name] : name));
  return entry.message(...args.map((arg) => (typeof arg !== 'string' || arg.includes('<') ? arg : `<${arg}>`)));
}

/** One table row: the code, the message as code (its `|` escaped for the table), what follows it, the fix. */
function row({ entry }: AnyBootErrorBuilder): string {
  const message = shownMessage(entry);
  if (message.includes('`')) throw new Error(`${entry.code}: a message shown as code cannot hold a backtick`);
  const shown = `\`${message.replaceAll('|', '\\|')}\`${entry.variants ? ` ${entry.variants}` : ''}`;
  return `| \`${entry.code}\` | ${shown} | ${entry.fix} |`;
}

/** The sections as markdown: a heading, its text and a table `| Code | Message | Fix |` each. */
export function bootErrorTables(sections: readonly McpBootErrorSection[]): string {
  return sections
    .map(({ title, intro, errors }) =>
      [`### ${title}`, ...(intro ? [intro] : []), ['| Code | Message | Fix |', '| --- | --- | --- |', ...errors.map(row)].join('\n')].join(
        '\n\n',
      ),
    )
    .join('\n\n');
}

/** The page with the text between the markers replaced by the tables; throws when a marker is missing. */
export function withBootErrorTables(page: string, sections: readonly McpBootErrorSection[]): string {
  const start = page.indexOf(BOOT_ERRORS_PAGE_START);
  const end = page.indexOf(BOOT_ERRORS_PAGE_END);
  if (start < 0 || end < start) throw new Error(`docs/errors.md needs the lines ${BOOT_ERRORS_PAGE_START} and ${BOOT_ERRORS_PAGE_END}`);
  return `${page.slice(0, start + BOOT_ERRORS_PAGE_START.length)}\n\n${bootErrorTables(sections)}\n\n${page.slice(end)}`;
}
