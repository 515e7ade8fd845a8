/** Characters of client text kept in a message; the rest is cut and marked with an ellipsis. */
export const CLIENT_TEXT_MAX_CHARACTERS = 64;

/** URIs run longer than names: enough of one to recognise it. */
export const CLIENT_URI_MAX_CHARACTERS = 256;

/** C0 and C1 controls, DEL and the Unicode line and paragraph separators: anything that could start a new line. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * Client text (a method, tool, prompt or task name, a URI...) as it may appear in an error message or log line:
 * at most {@link CLIENT_TEXT_MAX_CHARACTERS} characters plus `…`, control characters written as JSON escapes
 * (`\n`, `\u0000`), so a client can neither grow an answer with its own megabyte nor forge a log line.
 * Short printable text is kept as is.
 */
export function clientText(value: unknown, maxCharacters = CLIENT_TEXT_MAX_CHARACTERS): string {
  const text = typeof value === 'string' ? value : String(value);
  // Cut by code points, never inside a surrogate pair; looks at no more of a huge string than it keeps.
  const kept = Array.from(text.slice(0, maxCharacters * 2)).slice(0, maxCharacters);
  const cut = kept.join('');
  const escaped = cut.replace(CONTROL_CHARACTER, escape);
  return cut.length < text.length ? `${escaped}…` : escaped;
}

const SHORT_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escape(character: string): string {
  return SHORT_ESCAPES[character] ?? `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Client texts listed in one message: the first `maxItems`, each bounded, then how many more there were. */
export function clientTextList(values: readonly unknown[], maxItems = 10, maxCharacters = CLIENT_TEXT_MAX_CHARACTERS): string {
  const listed = values.slice(0, maxItems).map((value) => clientText(value, maxCharacters));
  const more = values.length - listed.length;
  return more > 0 ? `${listed.join(', ')} and ${more} more` : listed.join(', ');
}
