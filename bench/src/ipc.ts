/**
 * The protocol between the runner (bench/run.mjs) and a server child process, over the fork IPC channel:
 * the child says `ready` with its port; the runner asks for `rss` (optionally after `global.gc()`), for `cpu` (the
 * process's CPU time so far, user and system, in µs, and its monotonic clock in µs: the clock of `--cpu-prof` sample
 * timestamps) and for `exit`.
 */
export interface Closable {
  close(): Promise<unknown> | unknown;
  /** A gateway: the CPU time its upstream's process has used so far (`process.cpuUsage()` there). */
  upstreamCpu?(): Promise<NodeJS.CpuUsage>;
}

type RunnerMessage = { type: 'rss'; gc?: boolean } | { type: 'cpu' } | { type: 'upstream-cpu' } | { type: 'exit' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reports readiness (with `info`, facts of the boot) and serves the runner's requests until it asks this process to exit. */
export function serveRunner(port: number, app: Closable, info: Record<string, unknown> = {}): void {
  process.on('message', (message: RunnerMessage) => {
    if (message.type === 'rss') void reportMemory(message.gc === true);
    else if (message.type === 'cpu')
      process.send?.({ type: 'cpu', ...process.cpuUsage(), hrtimeUs: Number(process.hrtime.bigint() / 1000n) });
    else if (message.type === 'upstream-cpu') void app.upstreamCpu?.().then((usage) => process.send?.({ type: 'upstream-cpu', ...usage }));
    else if (message.type === 'exit') {
      // A normal exit, so --cpu-prof writes its profile.
      const timer = setTimeout(() => process.exit(0), 2_000);
      void Promise.resolve(app.close()).finally(() => {
        clearTimeout(timer);
        process.exit(0);
      });
    }
  });
  process.on('disconnect', () => process.exit(0));
  process.send?.({ type: 'ready', port, info });
}

/**
 * With `gc`: full collections, then a pause and another collection, so that V8's background threads have returned
 * the freed pages to the OS before RSS is read (read right after `gc()`, RSS still holds them).
 */
async function reportMemory(gc: boolean): Promise<void> {
  if (gc) {
    collectGarbage();
    await sleep(300);
    collectGarbage();
    await sleep(100);
  }
  const usage = process.memoryUsage();
  process.send?.({
    type: 'rss',
    rss: usage.rss,
    heapUsed: usage.heapUsed,
    heapTotal: usage.heapTotal,
    external: usage.external,
    arrayBuffers: usage.arrayBuffers,
  });
}

/** Two full collections: the second picks up what finalizers of the first released. */
export function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run the server with --expose-gc');
  gc();
  gc();
}

/** `--name value` from argv. */
export function arg(name: string, fallback?: string): string {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? process.argv[index + 1] : undefined;
  if (value === undefined) {
    if (fallback === undefined) throw new Error(`missing --${name}`);
    return fallback;
  }
  return value;
}

export const HOST = '127.0.0.1';
