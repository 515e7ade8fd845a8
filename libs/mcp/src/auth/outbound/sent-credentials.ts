/** Shorter values are not looked for (they would cut ordinary words out of a message). */
const MIN_CREDENTIAL_LENGTH = 8;

/**
 * The header values a request to another service carried, as text to keep out of what our caller sees: a careless
 * service repeats the credential it refused in its error ("invalid key abc..."), and that credential may be this
 * server's own (an API key, a client credentials token) or a tenant's. `Bearer <token>`: the token alone too.
 */
export function credentialValues(headers: Readonly<Record<string, string>>, into = new Set<string>()): Set<string> {
  for (const value of Object.values(headers)) {
    for (const part of [value, ...value.split(/\s+/)]) if (part.length >= MIN_CREDENTIAL_LENGTH) into.add(part);
  }
  return into;
}

/** `text` with each of `values` replaced by `[credential]` (the longest first: a token inside its header goes with it). */
export function withoutCredentials(text: string, values: ReadonlySet<string>): string {
  let cleaned = text;
  for (const value of [...values].sort((a, b) => b.length - a.length)) cleaned = cleaned.replaceAll(value, '[credential]');
  return cleaned;
}
