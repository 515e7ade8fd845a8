import { Injectable, Logger } from '@nestjs/common';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { McpPrincipal } from '../../core/mcp-principal.interface.js';
import { errorResponse, parseErrorResponse } from '../../core/json-rpc/json-rpc.codec.js';
import type { JsonRpcMessage } from '../../core/json-rpc/json-rpc.types.js';
import type { McpEra } from '../../eras/era-claim.js';
import { McpEraRouter, type McpEraConnection } from '../../eras/mcp-era.router.js';
import { classifyStdioMessage } from './stdio-era.classifier.js';
import { connectionCaller, type McpCaller } from '../../core/mcp-caller.js';

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
  /** The era the client chose with its first real message; undefined until then. */
  era?: McpEra;
  /** Where this connection's 2026-07-28 requests are cancelled (`notifications/cancelled`). */
  readonly scope20260728: string;
  readonly eras: McpEraConnection;
  /** The connection's caller: its principal and launch token (as `authorization: Bearer`), for every message. */
  readonly caller: McpCaller;
  readonly principal?: McpPrincipal;
}

/** Newline-delimited JSON-RPC, one message per line; requests served concurrently, `serve()` resolves after the last answer. */
@Injectable()
export class McpStdioTransport {
  private readonly logger = new Logger('McpStdio');
  private connections = 0;

  /** Nest injects it; its parameters are not part of the public API. @internal */
  constructor(private readonly router: McpEraRouter) {}

  /** `headers`: what an in-process test client presents besides the launch token (`@nest-mcp/core/testing`). */
  async serve(options: McpStdioOptions = {}, headers?: Readonly<Record<string, string>>): Promise<void> {
    const input = options.input ?? process.stdin;
    const write = options.write ?? ((line: string) => void process.stdout.write(line));
    const send = (message: JsonRpcMessage) => write(`${JSON.stringify(message)}\n`);
    const connection: StdioConnection = {
      scope20260728: `stdio-2026-07-28:${++this.connections}`,
      eras: this.router.openConnection(),
      caller: connectionCaller('stdio', options.principal, options.credentials, headers),
      principal: options.principal,
    };
    const inFlight = new Set<Promise<void>>();
    const lines = createInterface({ input, crlfDelay: Infinity });
    // A destroyed input (SIGTERM) emits 'close' but never 'end': close the reader so the loop below finishes.
    input.once('close', () => lines.close());

    for await (const rawLine of lines) {
      const line = rawLine.trim();
      if (line === '') continue;
      const work = this.handleLine(line, connection, send).catch((error: unknown) =>
        this.logger.error('stdio message failed', error instanceof Error ? error.stack : String(error)),
      );
      inFlight.add(work);
      void work.finally(() => inFlight.delete(work));
    }
    await Promise.all(inFlight);
    this.router.closeConnection(connection.eras);
  }

  private async handleLine(line: string, connection: StdioConnection, send: (message: JsonRpcMessage) => void): Promise<void> {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return send(parseErrorResponse());
    }
    const { principal, caller } = connection;
    const serving = this.router.serve(classifyStdioMessage(value, connection.era), {
      rev20251125: () => ({
        transport: 'stdio',
        principal,
        connection: connection.eras.rev20251125,
        cancellationScope: 'stdio',
        caller,
        stream: () => ({ send }),
      }),
      rev20260728: () => ({
        transport: 'stdio',
        principal,
        send,
        cancellationScope: connection.scope20260728,
        caller,
        connection: connection.eras.rev20260728,
        listenStream: () => ({ send, end: send }),
      }),
      pin: (era) => (connection.era = era),
    });
    const answer = serving instanceof Promise ? await serving : serving;
    if (answer.kind === 'refused') return send(errorResponse(answer.id, answer.error));
    // A batch answer is one JSON array on one line.
    if (answer.kind === 'reply' && answer.reply) send(answer.reply as JsonRpcMessage);
  }
}
