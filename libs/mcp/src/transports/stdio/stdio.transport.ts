import { Injectable, Logger } from '@nestjs/common';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { McpPrincipal } from '../../core/mcp-principal.interface.js';
import { errorResponse, parseErrorResponse } from '../../core/json-rpc/json-rpc.codec.js';
import type { JsonRpcMessage } from '../../core/json-rpc/json-rpc.types.js';
import { McpRev20251125Engine } from '../../eras/rev-2025-11-25/rev-2025-11-25.engine.js';
import type { McpConnectionState } from '../../core/mcp-channel.interface.js';
import { routeMessage, type McpEra } from '../../eras/era-router.js';
import { classifyStdioMessage } from './stdio-era.classifier.js';
import { McpStdioRev20260728Handler, type McpStdioRev20260728State } from './stdio-rev-2026-07-28.handler.js';

/** Where stdio reads and writes; defaults to the process's stdin and (the real) stdout. */
export interface McpStdioOptions {
  input?: Readable;
  /** Receives each outgoing line (without the newline handled for you). */
  write?: (line: string) => void;
  /** The caller, when already known; otherwise `credentials` are authenticated. */
  principal?: McpPrincipal;
  /** A token or API key from the environment (stdio has no HTTP headers), checked like a Bearer token. */
  credentials?: string;
  /** Where the user sets `credentials` (e.g. the variable `MCP_TOKEN`), named when they are missing or refused. */
  credentialsName?: string;
  /** With several MCP servers in the app (`McpModule` imported more than once): the `name` of the one to serve. */
  server?: string;
}

/** The state of the one client a stdio server has. */
interface StdioConnection {
  /** The era the client chose with its first real message (see `routeMessage`); undefined until then. */
  era?: McpEra;
  readonly rev20260728: McpStdioRev20260728State;
  /** What the 2025-11-25 era remembers of the client (its revision, capabilities, log level). */
  readonly state: McpConnectionState;
}

/**
 * stdio transport: newline-delimited JSON-RPC (no Content-Length framing), one message per line, UTF-8.
 * Requests are served concurrently; `serve()` resolves once stdin has ended and every call has answered.
 */
@Injectable()
export class McpStdioTransport {
  private readonly logger = new Logger('McpStdio');

  constructor(
    private readonly engine: McpRev20251125Engine,
    private readonly rev20260728: McpStdioRev20260728Handler,
  ) {}

  async serve(options: McpStdioOptions = {}): Promise<void> {
    const input = options.input ?? process.stdin;
    const write = options.write ?? ((line: string) => void process.stdout.write(line));
    const send = (message: JsonRpcMessage) => write(`${JSON.stringify(message)}\n`);
    const connection: StdioConnection = {
      rev20260728: this.rev20260728.openConnection(),
      state: this.engine.openConnection(),
    };
    const inFlight = new Set<Promise<void>>();
    const lines = createInterface({ input, crlfDelay: Infinity });
    // A destroyed input (SIGTERM) emits 'close' but never 'end': close the reader so the loop below finishes.
    input.once('close', () => lines.close());

    for await (const rawLine of lines) {
      const line = rawLine.trim();
      if (line === '') continue;
      const work = this.handleLine(line, connection, options.principal, send).catch((error: unknown) =>
        this.logger.error('stdio message failed', error instanceof Error ? error.stack : String(error)),
      );
      inFlight.add(work);
      void work.finally(() => inFlight.delete(work));
    }
    await Promise.all(inFlight);
    this.rev20260728.closeConnection(connection.rev20260728);
  }

  private async handleLine(
    line: string,
    connection: StdioConnection,
    principal: McpPrincipal | undefined,
    send: (message: JsonRpcMessage) => void,
  ): Promise<void> {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return send(parseErrorResponse());
    }
    const route = routeMessage(classifyStdioMessage(value, connection.era));
    switch (route.era) {
      case 'refused':
        return send(errorResponse(route.id, route.refusal.toJsonRpcError()));
      case '2026-07-28':
        if (route.kind === 'notification') return this.rev20260728.notification(route.notification, connection.rev20260728);
        if (route.kind === 'response') return;
        if (route.pins) connection.era = '2026-07-28';
        return this.rev20260728.request(route.request, route.envelope, connection.rev20260728, { principal, send });
      case '2025-11-25':
        if (route.opening) connection.era = '2025-11-25';
    }
    const answer = await this.engine.serve(value, {
      transport: 'stdio',
      principal,
      connection: connection.state,
      cancellationScope: 'stdio',
      stream: () => ({ send }),
    });
    if (answer.kind === 'refused') return send(errorResponse(answer.id, answer.error));
    // A batch answer is one JSON array on one line.
    if (answer.kind === 'reply' && answer.reply) send(answer.reply as JsonRpcMessage);
  }
}
