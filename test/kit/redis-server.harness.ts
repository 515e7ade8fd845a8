import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';

/** A redis-server started for one test file. */
export interface RedisServerHandle {
  /** `redis://127.0.0.1:<port>` */
  url: string;
  port: number;
  pid: number;
  /** Kills the server (SIGTERM, then SIGKILL) and waits until it has exited; safe to call twice. */
  stop(): Promise<void>;
  /** Sends `signal` (e.g. SIGKILL: a crash) by PID and waits until the server has exited. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** How {@link startRedisServer} runs the server. */
export interface RedisServerOptions {
  /** Listen here (to restart a server at the same address); a free port otherwise. */
  port?: number;
  /**
   * Persist every write to an append-only file in `dir` (`--appendonly yes --appendfsync always`): a server
   * started again on the same `dir`, even after SIGKILL, has every acknowledged write. Without it, no persistence.
   */
  appendOnly?: { dir: string };
  /** More `redis-server` arguments (the cluster harness: `--cluster-enabled yes ...`). */
  args?: readonly string[];
}

const REDIS_SERVER = process.env.REDIS_SERVER ?? 'redis-server';
const READY_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 5_000;

/** Servers still running, killed when the test process exits even if a test forgot to stop one. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Starts `redis-server` on a free loopback port (or on `port`, to restart one at the same address), without
 * persistence unless `appendOnly` is set, and resolves once it answers PING.
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServerHandle> {
  // A free port can be taken between probing and binding; only then is another port tried.
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    try {
      return await startOn(port, options.appendOnly, options.args);
    } catch (error) {
      if (options.port !== undefined || attempt >= 5 || !/Address already in use/i.test(String(error))) throw error;
    }
  }
}

async function startOn(
  port: number,
  appendOnly?: RedisServerOptions['appendOnly'],
  args: readonly string[] = [],
): Promise<RedisServerHandle> {
  const persistence = appendOnly ? ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', appendOnly.dir] : ['--appendonly', 'no'];
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const failedToSpawn = new Promise<never>((_, reject) =>
    child.once('error', (error) =>
      reject(new Error(`cannot start ${REDIS_SERVER} (${error.message}); install it, e.g. apt-get install redis-server`)),
    ),
  );
  running.add(child);
  void exited.then(() => running.delete(child));

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  };

  try {
    await Promise.race([failedToSpawn, waitUntilReady(port, child, () => output)]);
  } catch (error) {
    await stop();
    throw error;
  }
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    await exited;
  };
  return { url: `redis://127.0.0.1:${port}`, port, pid: child.pid!, stop, kill };
}

async function waitUntilReady(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`redis-server on port ${port} exited at start:\n${output()}`);
    if (await answersPing(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`redis-server on port ${port} did not answer PING within ${READY_TIMEOUT_MS} ms:\n${output()}`);
}

/** One raw RESP PING, so the harness needs no client library. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      // "-LOADING ..." is an answer too, but not ready yet.
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

/** A port nothing listens on right now (loopback). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
