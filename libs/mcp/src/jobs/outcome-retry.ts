import { McpStoreUnavailableError } from '../core/errors/store-unavailable.error.js';

/** How long a finished job keeps trying to record its outcome while the store is away (a Redis restart). */
export const OUTCOME_RETRY_MS = 30_000;
const RETRY_EVERY_MS = 250;

/**
 * Runs `record` (a job's or task's final write) again while the store is unreachable, for up to
 * {@link OUTCOME_RETRY_MS}: a job whose tool finished during a Redis restart must not stay `pending` for ever
 * once Redis is back. Any other error, or the store still away after that, is thrown.
 */
export async function recordOutcome<T>(record: () => Promise<T>, retryForMs = OUTCOME_RETRY_MS): Promise<T> {
  const deadline = Date.now() + retryForMs;
  for (;;) {
    try {
      return await record();
    } catch (error) {
      if (!(error instanceof McpStoreUnavailableError) || Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, RETRY_EVERY_MS));
    }
  }
}
