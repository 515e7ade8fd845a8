/** The notification types a 2026-07-28 client listens for on behalf of `on('notification')` listeners. */
export const LISTEN_FILTER = { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true } as const;

/** The acknowledgement that opens a listen: the client's own business, not a server notification for listeners. */
export const LISTEN_ACKNOWLEDGED = 'notifications/subscriptions/acknowledged';

const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 30_000;

/**
 * Keeps one `subscriptions/listen` open while `wanted()` (2026-07-28 has no GET stream: list changes arrive on a
 * listen): `open` sends it and settles when it ends (the server ended it, the stream dropped); it is opened again
 * with backoff, reset after a listen that lasted. Ends when `signal` aborts, nothing wants it any more, or `open`
 * says `stop` (the server refused the listen).
 */
export async function keepListening(open: () => Promise<'stop' | undefined>, wanted: () => boolean, signal: AbortSignal): Promise<void> {
  let delay = FIRST_DELAY_MS;
  while (!signal.aborted && wanted()) {
    const started = Date.now();
    if ((await open()) === 'stop' || signal.aborted || !wanted()) return;
    if (Date.now() - started > MAX_DELAY_MS) delay = FIRST_DELAY_MS;
    await new Promise((resolve) => setTimeout(resolve, delay).unref());
    delay = Math.min(delay * 2, MAX_DELAY_MS);
  }
}
