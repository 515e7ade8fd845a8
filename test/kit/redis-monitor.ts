import type { Redis } from 'ioredis';

/** What Redis ran while a piece of a test ran: each command with its arguments, sent by a client or run in a script. */
export interface MonitoredCommands {
  /** Commands clients sent, lower-case name first (`['eval', '<script>', '2', ...]`). */
  fromClients: string[][];
  /** Commands scripts ran. */
  inScripts: string[][];
}

/** An instance lease's key (`<prefix>lease:<instance id>`). */
const LEASE_KEY = /(^|:)lease:[0-9a-f]+$/;

/**
 * Runs `run` under MONITOR on `redis` (a connected client of the server to watch) and returns what the server ran
 * meanwhile, so a test can count round trips. The observer's own fence PING is left out, and so are the instance
 * lease renewals (`SET <prefix>lease:<instance>`): a timer writes them every `instanceLease.renewMs`, whatever the test does.
 */
export async function monitorWhile(redis: Redis, run: () => Promise<void>): Promise<MonitoredCommands> {
  const monitor = await redis.monitor();
  const seen: MonitoredCommands = { fromClients: [], inScripts: [] };
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    const command = [String(args[0]).toLowerCase(), ...args.slice(1).map(String)];
    if (command[0] === 'set' && LEASE_KEY.test(command[1] ?? '')) return;
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
    // A monitor line still in flight when the connection leaves MONITOR mode reaches ioredis as a reply to no
    // command ("Command queue state error"): the observer is done, so its errors no longer matter.
    monitor.removeAllListeners('monitor');
    monitor.on('error', () => undefined);
    monitor.disconnect();
  }
  seen.fromClients = seen.fromClients.filter(([name, arg]) => !(name === 'ping' && arg === 'monitor-fence'));
  return seen;
}
