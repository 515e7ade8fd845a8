/** Most URIs one session may watch, so a client cannot grow an instance's memory (or its stored record) without bound. */
export const MAX_SUBSCRIPTIONS_PER_SUBSCRIBER = 1000;

/**
 * Most characters of URI text one session may watch in all: a template matches URIs of any length, and 1 000 of
 * up to a request body each would be a gigabyte per session.
 */
export const MAX_SUBSCRIBED_URI_CHARACTERS = 65_536;

/** Whether a subscriber watching `uris` may add `uri` (one it does not watch yet) within both bounds. */
export function roomFor(uris: Iterable<string>, uri: string): boolean {
  let count = 0;
  let characters = uri.length;
  for (const each of uris) {
    count++;
    characters += each.length;
  }
  return count < MAX_SUBSCRIPTIONS_PER_SUBSCRIBER && characters <= MAX_SUBSCRIBED_URI_CHARACTERS;
}
