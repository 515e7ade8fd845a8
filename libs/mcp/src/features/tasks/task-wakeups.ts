/**
 * The wake-ups of one running job or task: answers delivered to it (on this instance, or on another one and
 * heard on the bus) end its current wait early instead of at the next poll.
 */
export class McpTaskWakeups {
  private readonly waiters = new Set<() => void>();

  /** Ends every wait in progress. */
  wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /** Resolves after `ms`, on a wake-up, or when `signal` aborts, whichever comes first. */
  wait(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const stop = () => {
        clearTimeout(timer);
        this.waiters.delete(stop);
        signal.removeEventListener('abort', stop);
        resolve();
      };
      const timer = setTimeout(stop, ms);
      this.waiters.add(stop);
      signal.addEventListener('abort', stop, { once: true });
    });
  }
}
