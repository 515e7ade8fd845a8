import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { McpClientStdioOptions } from '../mcp-client-options.interface.js';
import { McpClientError } from '../mcp-client.error.js';
import { tooLarge } from './bounded-body.js';
import type { McpClientTransport, McpClientTransportSink } from './client-transport.interface.js';

/** What a child inherits of the parent's environment; its own `env` comes on top (the parent's secrets stay). */
const INHERITED_ENV = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'TERM', 'LANG', 'LC_ALL', 'TMPDIR', 'TZ', 'SYSTEMROOT', 'NODE_OPTIONS'];

/** Time a child gets to exit after stdin closes, then after SIGTERM. */
const EXIT_GRACE_MS = 2_000;

/**
 * A server run as a child process: one JSON-RPC message per line on stdin and stdout (stderr is its log). The
 * child exiting is a lost connection; the client spawns a new one.
 */
export class StdioClientTransport implements McpClientTransport {
  readonly kind = 'stdio' as const;
  private child?: ChildProcessWithoutNullStreams;

  constructor(
    private readonly options: McpClientStdioOptions,
    private readonly maxBytes: number,
  ) {}

  open(sink: McpClientTransportSink): Promise<void> {
    return new Promise((resolve, reject) => {
      const inherited = Object.fromEntries(
        INHERITED_ENV.flatMap((key) => (process.env[key] === undefined ? [] : [[key, process.env[key]!]])),
      );
      const child = spawn(this.options.command, this.options.args ?? [], {
        cwd: this.options.cwd,
        env: { ...inherited, ...this.options.env },
        stdio: ['pipe', 'pipe', 'pipe'],
        windowsHide: true,
      });
      this.child = child;
      child.once('spawn', () => resolve());
      child.once('error', (error) => {
        reject(
          new McpClientError(
            'UNAVAILABLE',
            `Cannot start ${this.options.command}: ${(error as NodeJS.ErrnoException).code ?? error.message}`,
          ),
        );
      });
      child.stdin.on('error', () => undefined); // writing to an exited child: reported by 'exit'
      child.stderr.resume(); // its log, read and dropped: a full pipe would block the child
      this.readLines(child, sink);
      child.once('exit', (code, signal) => {
        if (this.child === child) this.child = undefined;
        sink.closed(new McpClientError('UNAVAILABLE', `The server process exited (${signal ?? `code ${code}`})`));
      });
    });
  }

  send(message: Record<string, unknown>): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || !child.stdin.writable) {
      return Promise.reject(new McpClientError('UNAVAILABLE', 'The server process is not running'));
    }
    return new Promise((resolve, reject) =>
      child.stdin.write(`${JSON.stringify(message)}\n`, (error) =>
        error ? reject(new McpClientError('UNAVAILABLE', 'The server process closed its input')) : resolve(),
      ),
    );
  }

  async close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const after = (ms: number) => new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), ms).unref());
    child.stdin.end();
    if ((await Promise.race([exited, after(EXIT_GRACE_MS)])) !== 'late') return;
    child.kill('SIGTERM');
    if ((await Promise.race([exited, after(EXIT_GRACE_MS)])) !== 'late') return;
    child.kill('SIGKILL');
  }

  /** Splits stdout into lines; a line over `maxBytes` is dropped (its request then times out) and logged as too large. */
  private readLines(child: ChildProcessWithoutNullStreams, sink: McpClientTransportSink): void {
    let partial = '';
    let skipping = false;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      let text = partial + chunk;
      let index: number;
      while ((index = text.indexOf('\n')) >= 0) {
        const line = text.slice(0, index).trim();
        text = text.slice(index + 1);
        if (skipping) {
          skipping = false;
          continue;
        }
        if (line === '') continue;
        try {
          sink.message(JSON.parse(line) as unknown);
        } catch {
          // A line that is no JSON (a stray log line on stdout): not a message.
        }
      }
      partial = text;
      if (Buffer.byteLength(partial) > this.maxBytes) {
        partial = '';
        skipping = true;
        sink.closed(tooLarge(this.maxBytes));
      }
    });
  }
}
