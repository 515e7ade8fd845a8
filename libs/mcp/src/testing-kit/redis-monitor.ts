import type { Redis } from 'ioredis';

/** What Redis ran while a piece of a test ran: each command with its arguments, sent by a client or run in a script. */
export interface MonitoredCommands {
  /** Commands clients sent, lower-case name first (`['eval', '<script>', '2', ...]`). */
  fromClients: string[][];
  /** Commands scripts ran. */
  inScripts: string[][];
}

/**
 * Runs `run` under MONITOR on `redis` (a connected client of the server to watch) and returns what the server ran
 * meanwhile, so a test can count round trips. The observer's own fence PING is left out.
 */
export async function monitorWhile(redis: Redis, run: () => Promise<void>): Promise<MonitoredCommands> {
  const monitor = await redis.monitor();
  const seen: MonitoredCommands = { fromClients: [], inScripts: [] };
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    const command = [String(args[0]).toLowerCase(), ...args.slice(1).map(String)];
    (source === 'lua' ? seen.inScripts : seen.fromClients).push(command);
  });
  try {
    await run();
    // MONITOR delivers asynchronously: a PING through the monitored server marks the end of what it saw.
    await redis.ping('monitor-fence');
    await new Promise<void>((resolve) => {
      const check = () =>
        seen.fromClients.some(([name, arg]) => name === 'ping' && arg === 'monitor-fence') ? resolve() : setTimeout(check, 10);
      check();
    });
  } finally {
    monitor.disconnect();
  }
  seen.fromClients = seen.fromClients.filter(([name, arg]) => !(name === 'ping' && arg === 'monitor-fence'));
  return seen;
}
