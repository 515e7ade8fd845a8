import { PassThrough } from 'node:stream';
import type { McpClientTransport, McpClientTransportSink } from '../client/transports/client-transport.interface.js';
import { McpClientError } from '../client/mcp-client.error.js';
import type { McpPrincipal } from '../core/mcp-principal.interface.js';
import type { McpStdioTransport } from '../transports/stdio/stdio.transport.js';
import type { McpTestApp } from './mcp-test.connection.js';

/**
 * An `McpClient` transport into an app of the same process: the app's own stdio transport serves it over a pipe
 * of lines (so both eras, `server/discover` and `initialize`, work as they do for a child process), as the given
 * principal, with no socket and no child.
 */
export class McpInMemoryClientTransport implements McpClientTransport {
  readonly kind = 'memory' as const;
  private input?: PassThrough;

  constructor(
    private readonly app: McpTestApp,
    private readonly stdio: McpStdioTransport,
    private readonly principal: McpPrincipal | undefined,
    private readonly headers?: Readonly<Record<string, string>>,
  ) {}

  async open(sink: McpClientTransportSink): Promise<void> {
    // A compiled TestingModule has not run its lifecycle hooks yet; init() is idempotent on an app that did.
    if (typeof this.app.init === 'function') await this.app.init();
    const input = new PassThrough();
    this.input = input;
    const write = (line: string) => {
      // A socket never delivers in the same tick: neither does this pipe.
      queueMicrotask(() => {
        if (this.input === input) sink.message(JSON.parse(line) as unknown);
      });
    };
    void this.stdio.serve({ input, write, principal: this.principal }, this.headers).then(
      () => this.input === input && sink.closed(new McpClientError('UNAVAILABLE', 'The app stopped serving')),
      () => this.input === input && sink.closed(new McpClientError('UNAVAILABLE', 'The app failed while serving')),
    );
  }

  send(message: Record<string, unknown>): Promise<void> {
    const input = this.input;
    if (!input || input.writableEnded) return Promise.reject(new McpClientError('UNAVAILABLE', 'The in-memory connection is closed'));
    input.write(`${JSON.stringify(message)}\n`);
    return Promise.resolve();
  }

  async close(): Promise<void> {
    const input = this.input;
    this.input = undefined;
    // Ends the app's read loop; calls still running finish on the app's side (close the app to stop them).
    input?.end();
  }
}
