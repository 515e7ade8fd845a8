import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { REPO_ROOT } from './build.js';

/** Children still running when the test process exits are killed, even if a test failed before stopping them. */
const running = new Set<ChildProcessWithoutNullStreams>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * The one spawner of the tests: `node script ...args` as a child process (a stdio MCP server, or the built weather
 * server on a port), what it wrote line by line, and helpers to talk to it. The child sees the test's environment
 * without any `MCP_*` variable (a developer's shell must not change what the tests see), then `env`.
 */
export class StdioServerProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** Every complete stdout line, in order (the newline removed). */
  readonly lines: string[] = [];
  stderr = '';
  /** Raw stdout, to check the framing byte for byte. */
  stdout = '';
  private partial = '';
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly waiters = new Set<() => void>();

  constructor(script: string, args: string[] = [], env: Record<string, string> = {}) {
    const base = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('MCP_')));
    this.child = spawn(process.execPath, [script, ...args], {
      cwd: REPO_ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...base, NODE_ENV: 'test', ...env },
    });
    running.add(this.child);
    this.child.stdout.setEncoding('utf8');
    this.child.stderr.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      this.stdout += chunk;
      this.partial += chunk;
      let index: number;
      while ((index = this.partial.indexOf('\n')) >= 0) {
        this.lines.push(this.partial.slice(0, index));
        this.partial = this.partial.slice(index + 1);
      }
      this.notify();
    });
    this.child.stderr.on('data', (chunk: string) => {
      this.stderr += chunk;
      this.notify();
    });
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
    void this.exited.then(() => {
      running.delete(this.child);
      this.notify();
    });
    // Writing to a process that exited must not crash the test.
    this.child.stdin.on('error', () => undefined);
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Sends one message (an object is JSON-encoded) followed by a newline. */
  send(message: unknown): void {
    this.child.stdin.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
  }

  /** The messages parsed so far (throws on a line that is not JSON: stdout must carry only protocol messages). */
  messages(): any[] {
    return this.lines.map((line) => JSON.parse(line));
  }

  /** Waits until `condition()` holds, re-checking on every output; fails with the output after `timeoutMs`. */
  async waitFor<T>(condition: () => T | undefined | false, timeoutMs = 10_000, what = 'condition'): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = condition();
      if (value) return value;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`timed out waiting for ${what}\nstdout:\n${this.stdout}\nstderr:\n${this.stderr.slice(-4000)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(remaining, 200));
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.waiters.add(done);
      });
      this.waiters.clear();
    }
  }

  /** The response to request `id`, waiting for it. */
  response(id: string | number, timeoutMs = 10_000): Promise<any> {
    return this.waitFor(
      () => this.parsedLines().find((message) => message?.id === id && ('result' in message || 'error' in message)),
      timeoutMs,
      `response ${id}`,
    );
  }

  /** Lines parsed leniently (non-JSON lines are `undefined`), for waiting. */
  parsedLines(): any[] {
    return this.lines.map((line) => {
      try {
        return JSON.parse(line);
      } catch {
        return undefined;
      }
    });
  }

  /** Waits until stderr matches `pattern` (a server's "listening" line); fails if the process exits first. */
  async waitForStderr(pattern: RegExp, timeoutMs = 20_000): Promise<void> {
    await this.waitFor(() => pattern.test(this.stderr) || (this.hasExited && 'exited'), timeoutMs, `stderr to match ${pattern}`);
    if (!pattern.test(this.stderr)) throw new Error(`${this.child.spawnfile} exited before printing ${pattern}:\n${this.stderr}`);
  }

  /** Resolves with the exit code and signal; kills the process (by its PID) if it has not exited in time. */
  async waitForExit(timeoutMs = 15_000): Promise<{ code: number | null; signal: NodeJS.Signals | null; timedOut: boolean }> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const result = await Promise.race([this.exited, timeout]);
    clearTimeout(timer);
    if (result !== 'timeout') return { ...result, timedOut: false };
    this.kill();
    return { ...(await this.exited), timedOut: true };
  }

  get hasExited(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  /** Ends stdin (EOF). */
  endInput(): void {
    this.child.stdin.end();
  }

  /** Sends a signal to this process by its PID. */
  signal(signal: NodeJS.Signals): void {
    if (!this.hasExited) process.kill(this.pid, signal);
  }

  /** Force-kills the process (by PID) if it is still running; for cleanup. */
  kill(): void {
    if (!this.hasExited) {
      try {
        process.kill(this.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

/** Every stdout line must be exactly one JSON-RPC 2.0 message: a request/notification (method) or a response (id). */
export function assertJsonRpcLines(lines: string[]): void {
  for (const line of lines) {
    let message: any;
    try {
      message = JSON.parse(line);
    } catch {
      throw new Error(`stdout line is not JSON: ${JSON.stringify(line)}`);
    }
    if (
      typeof message !== 'object' ||
      message === null ||
      Array.isArray(message) ||
      message.jsonrpc !== '2.0' ||
      !('id' in message || 'method' in message)
    ) {
      throw new Error(`stdout line is not one JSON-RPC message: ${line}`);
    }
  }
}
