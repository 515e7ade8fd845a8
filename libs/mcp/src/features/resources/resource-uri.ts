/** RFC 3986 scheme followed by `:`. */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/**
 * True for an absolute URI (a scheme, then something) without whitespace or control characters. Custom
 * schemes are fine (`test://static-text`, `app://config`): the spec only asks that they follow RFC 3986.
 */
export function isAbsoluteUri(value: unknown): value is string {
  if (typeof value !== 'string' || !SCHEME.test(value) || /[\s\u0000-\u001f\u007f]/.test(value)) return false;
  return value.length > value.indexOf(':') + 1 && URL.canParse(value);
}
