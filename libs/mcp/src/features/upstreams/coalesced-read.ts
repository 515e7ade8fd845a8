/** Least time between the starts of two reads of one list of one upstream. */
const MIN_INTERVAL_MS = 500;

/**
 * One list of one upstream read again on its `list_changed`, coalesced: one read in flight and at most one pending,
 * each starting at least `minIntervalMs` after the previous one, so a flood of notifications costs a read per
 * interval rather than a read (and a copy of the list) each. A read pending starts after the last notification it
 * stands for, so the list ends current. `read` handles its own failures.
 */
export class CoalescedRead {
  private running = false;
  private pending = false;
  private lastStart = 0;

  constructor(
    private readonly read: () => Promise<void>,
    private readonly minIntervalMs = MIN_INTERVAL_MS,
  ) {}

  /** Asks for a read: now when none runs and the last began long enough ago, else once the one in flight ends. */
  request(): void {
    this.pending = true;
    if (this.running) return;
    this.running = true;
    void this.drain().finally(() => (this.running = false));
  }

  private async drain(): Promise<void> {
    while (this.pending) {
      const wait = this.lastStart + this.minIntervalMs - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait).unref());
      // Notifications that came while waiting are served by this read: it starts after them.
      this.pending = false;
      this.lastStart = Date.now();
      await this.read();
    }
  }
}
