/**
 * Encodes a value for a 2026-07-28 header the way clients must: plain visible ASCII as it is, anything else (and a
 * value that would read as a sentinel) as `=?base64?<Base64 of its UTF-8>?=`. The server only decodes
 * (`eras/rev-2026-07-28/header-values.ts`).
 */
export function encodeHeaderValue(value: string): string {
  const plain =
    value !== '' && value === value.trim() && /^[\x20-\x7e\t]*$/.test(value) && !(value.startsWith('=?base64?') && value.endsWith('?='));
  return plain ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}
