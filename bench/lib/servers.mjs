// Server child processes and the HTTP helpers the runner drives them with.
import { fork } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const HOST = '127.0.0.1';

/** Every child process started and not yet seen exiting, so a crash or Ctrl-C still ends them (by PID). */
const live = new Set();

export function killAll() {
  for (const child of live) {
    try {
      process.kill(child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  live.clear();
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    killAll();
    process.exit(130);
  });
}
process.on('exit', killAll);

/** Forks a child, tracks it, and keeps the tail of its output for error messages. */
export function forkTracked(script, args, options = {}) {
  const child = fork(script, args, { cwd: BENCH, stdio: ['ignore', 'pipe', 'pipe', 'ipc'], ...options });
  live.add(child);
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk).slice(-8_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.on('exit', () => live.delete(child));
  child.outputTail = () => output;
  return child;
}

/**
 * Starts one benchmarked server (`bench/dist/server.js`, or `bench/rekog/dist/server.js`) with `--expose-gc`, on an
 * ephemeral loopback port, and resolves once it reports ready.
 */
export async function startServer(stack, { largeLimits = false, execArgv = [], args: extraArgs = [] } = {}) {
  const script = stack.startsWith('rekog') ? path.join(BENCH, 'rekog/dist/server.js') : path.join(BENCH, 'dist/server.js');
  const args = ['--stack', stack, ...(largeLimits ? ['--large-limits'] : []), ...extraArgs];
  const child = forkTracked(script, args, { execArgv: ['--expose-gc', ...execArgv] });
  let info = {};
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${stack} did not start within 60 s\n${child.outputTail()}`)), 60_000);
    child.on('message', function onReady(message) {
      if (message?.type !== 'ready') return;
      clearTimeout(timer);
      child.off('message', onReady);
      info = message.info ?? {};
      resolve(message.port);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${stack} exited with code ${code} before it was ready\n${child.outputTail()}`));
    });
  });

  let queue = Promise.resolve();
  /** One request to the server over IPC, answered by a message of the same type; requests are serialized. */
  const ask = (type, extra = {}) => {
    const next = queue.then(
      () =>
        new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`${stack} did not answer ${type}`)), 30_000);
          child.on('message', function onAnswer(message) {
            if (message?.type !== type) return;
            clearTimeout(timer);
            child.off('message', onAnswer);
            resolve(message);
          });
          child.send({ type, ...extra });
        }),
    );
    queue = next.catch(() => undefined);
    return next;
  };
  /** Memory of the server process; `gc` runs full collections (and waits for pages to be returned) first. */
  const memory = (gc = false) => ask('rss', { gc });
  /** CPU time the server process has used so far (user + system), in µs. */
  const cpu = async () => {
    const usage = await ask('cpu');
    return usage.user + usage.system;
  };
  /** `ours-gateway`: the CPU time its upstream's process has used so far, in µs. */
  const upstreamCpu = async () => {
    const usage = await ask('upstream-cpu');
    return usage.user + usage.system;
  };
  /** The server's monotonic clock in µs (what `--cpu-prof` timestamps use). */
  const clock = async () => (await ask('cpu')).hrtimeUs;
  /** Asks the server to close and exit normally (so `--cpu-prof` writes its profile); SIGKILL after 15 s. */
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => {
        try {
          process.kill(child.pid, 'SIGKILL');
        } catch {
          // gone
        }
      }, 15_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      try {
        child.send({ type: 'exit' });
      } catch {
        process.kill(child.pid, 'SIGKILL');
      }
    });
  return { stack, port, info, pid: child.pid, url: `http://${HOST}:${port}/mcp`, memory, cpu, upstreamCpu, clock, stop, child };
}

/** One HTTP request; resolves with status, headers and the body text. */
export function request(port, { method = 'POST', path: urlPath = '/mcp', headers = {}, body, agent } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const req = http.request(
      {
        host: HOST,
        port,
        method,
        path: urlPath,
        agent,
        headers: { ...headers, ...(payload !== undefined && { 'content-length': Buffer.byteLength(payload) }) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The JSON-RPC message of a response: a JSON body, or the last `data:` of an event stream. */
export function jsonRpcOf(response) {
  const type = String(response.headers['content-type'] ?? '');
  if (type.includes('text/event-stream')) {
    const data = response.text
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trim())
      .filter(Boolean);
    return data.length ? JSON.parse(data[data.length - 1]) : undefined;
  }
  return response.text ? JSON.parse(response.text) : undefined;
}

/**
 * Opens a long-lived GET stream on its own socket and resolves once `ready(textSoFar)` holds (or at the response
 * headers when `ready` is omitted); the caller closes it with `close()`.
 */
export function openStream(port, urlPath, headers, ready) {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: HOST,
      port,
      method: 'GET',
      path: urlPath,
      agent: false,
      headers: { accept: 'text/event-stream', ...headers },
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`GET ${urlPath} gave no stream within 30 s`));
    }, 30_000);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        clearTimeout(timer);
        res.resume();
        req.destroy();
        return reject(new Error(`GET ${urlPath} answered ${res.statusCode}`));
      }
      res.setEncoding('utf8');
      let text = '';
      const done = () => {
        clearTimeout(timer);
        resolve({ close: () => req.destroy() });
      };
      if (!ready) return (res.on('data', () => undefined), done());
      res.on('data', (chunk) => {
        if (text === null) return;
        text += chunk;
        if (ready(text)) {
          text = null;
          done();
        }
      });
    });
    req.end();
  });
}

/** Runs `task(i)` for i in [0, count) with at most `concurrency` at once. */
export async function pool(count, concurrency, task) {
  const results = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await task(index);
      }
    }),
  );
  return results;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
