/** A malformed or unsupported URI template; the message says what is wrong, for a boot error. */
export class UriTemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UriTemplateError';
  }
}

/** A URI template compiled once at boot; matching is then one RegExp run. */
export interface CompiledUriTemplate {
  readonly template: string;
  /** Variable names in template order. */
  readonly variables: readonly string[];
  /** The URI-decoded variables when `uri` is an expansion of the template; undefined otherwise. */
  match(uri: string): Record<string, string> | undefined;
  /** The template with every variable replaced by `value` (to check the result is an absolute URI). */
  expand(value: string): string;
}

/** RFC 6570 `varname` (without pct-encoded characters): word characters, dot-separated. */
const VARIABLE_NAME = /^[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*$/;
/** Operators of RFC 6570 levels 2 to 4 other than `+`. */
const OTHER_OPERATORS = /^[#./;?&=,!@|]/;

/**
 * Compiles an RFC 6570 level-1 template, plus level 2's `{+var}`. A `{var}` (simple expansion) matches one or
 * more characters other than `/`, `?` and `#`, since its expansion percent-encodes every reserved character;
 * `{+var}` (reserved expansion) matches anything. Matched values are percent-decoded.
 *
 * @throws UriTemplateError for unbalanced braces, other operators, modifiers, lists or a template without variables
 */
export function compileUriTemplate(template: string): CompiledUriTemplate {
  const variables: string[] = [];
  const literals: string[] = [];
  let pattern = '';
  let position = 0;
  while (position < template.length) {
    const open = template.indexOf('{', position);
    const close = template.indexOf('}', position);
    if (close !== -1 && (open === -1 || close < open)) throw new UriTemplateError(`"}" at position ${close} has no matching "{"`);
    if (open === -1) break;
    if (close === -1) throw new UriTemplateError(`"{" at position ${open} is never closed`);
    const expression = template.slice(open + 1, close);
    if (expression.includes('{')) throw new UriTemplateError(`"{" at position ${open} is never closed`);
    const reserved = expression.startsWith('+');
    const name = reserved ? expression.slice(1) : expression;
    checkVariable(expression, name, variables);
    literals.push(template.slice(position, open));
    pattern += escapeRegExp(template.slice(position, open)) + (reserved ? '(.+)' : '([^/?#]+)');
    variables.push(name);
    position = close + 1;
  }
  const tail = template.slice(position);
  if (variables.length === 0) throw new UriTemplateError('it has no {variable} (a fixed URI is a resource, not a template)');
  const regexp = new RegExp(`^${pattern}${escapeRegExp(tail)}$`);
  return {
    template,
    variables,
    match(uri) {
      const found = regexp.exec(uri);
      if (!found) return undefined;
      const values: Record<string, string> = {};
      for (const [index, name] of variables.entries()) {
        try {
          values[name] = decodeURIComponent(found[index + 1]!);
        } catch {
          return undefined; // a malformed %-escape cannot be an expansion of the template
        }
      }
      return values;
    },
    expand: (value) => literals.map((literal) => literal + value).join('') + tail,
  };
}

function checkVariable(expression: string, name: string, seen: readonly string[]): void {
  if (name === '') throw new UriTemplateError(`"{${expression}}" names no variable`);
  if (OTHER_OPERATORS.test(name))
    throw new UriTemplateError(`operator "${name[0]}" in "{${expression}}" is not supported; use {name} or {+name}`);
  if (/[,*:]/.test(name))
    throw new UriTemplateError(`"{${expression}}" is not supported; use one variable per expression, without modifiers`);
  if (!VARIABLE_NAME.test(name)) throw new UriTemplateError(`"${name}" is not a variable name (letters, digits and "_", dot-separated)`);
  if (seen.includes(name)) throw new UriTemplateError(`variable "${name}" appears twice`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
