/** A caller's share of a fixed window: how many requests it has made in the window that started at `since`. */
interface Window {
  since: number;
  count: number;
}

/**
 * Fixed-window request counts per caller (an address, a client id) and in total, in this process. The callers'
 * map holds at most `maxCallers` (the least recently counted goes first), so a flood of new addresses costs bounded
 * memory; losing a caller's count only forgets it, while the total still holds.
 */
export class CallerBudget {
  private readonly callers = new Map<string, Window>();
  private total: Window = { since: -Infinity, count: 0 };

  constructor(
    private readonly settings: { perCaller: number; total: number; windowMs: number; maxCallers?: number },
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Counts one request of every caller in `keys` and in total, all or none: undefined when admitted, else the ms
   * until the window that refused it ends.
   */
  take(keys: readonly string[]): number | undefined {
    const now = this.now();
    const { perCaller, total, windowMs } = this.settings;
    if (now - this.total.since >= windowMs) this.total = { since: now, count: 0 };
    const windows = keys.map((key) => this.windowOf(key, now));
    const full = [this.total, ...windows].find((window, index) => window.count >= (index === 0 ? total : perCaller));
    if (full) return Math.max(1, full.since + windowMs - now);
    this.total.count++;
    for (const window of windows) window.count++;
    return undefined;
  }

  private windowOf(key: string, now: number): Window {
    let window = this.callers.get(key);
    if (window) this.callers.delete(key);
    if (!window || now - window.since >= this.settings.windowMs) window = { since: now, count: 0 };
    // Re-inserted: the map's order is the order of last use, its first key the least recently counted.
    this.callers.set(key, window);
    while (this.callers.size > (this.settings.maxCallers ?? 10_000)) this.callers.delete(this.callers.keys().next().value as string);
    return window;
  }
}

/**
 * The key an address is counted under: an IPv6 address by its /64 (one host holds a whole /64 and could rotate
 * through it), an IPv4 one (mapped or not) as is.
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (!address.includes(':')) return address;
  const [head, tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
