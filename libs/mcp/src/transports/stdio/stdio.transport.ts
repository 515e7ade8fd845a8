import { Injectable, Logger } from '@nestjs/common';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { McpPrincipal } from '../../core/mcp-principal.interface.js';
import { errorResponse, parseErrorResponse } from '../../core/json-rpc/json-rpc.codec.js';
import type { JsonRpcMessage } from '../../core/json-rpc/json-rpc.types.js';
import { McpEraRouter } from '../../eras/mcp-era.router.js';
import type { McpEraChannel } from '../../eras/mcp-era.channel.js';
import { connectionCaller } from '../../core/mcp-caller.js';

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
    // One channel for the connection's every message: its state (what `initialize` negotiated, the era its first
    // real message pinned, its open subscriptions), its caller (principal and launch token), where it is cancelled.
    const connection = this.router.openConnection();
    const streamed = { send };
    const subscription = { send, end: send };
    const channel: McpEraChannel = {
      transport: 'stdio',
      principal: options.principal,
      caller: connectionCaller('stdio', options.principal, options.credentials, headers),
      connection,
      cancellationScope: `stdio:${++this.connections}`,
      stream: () => streamed,
      subscribe: () => subscription,
    };
    const inFlight = new Set<Promise<void>>();
    const lines = createInterface({ input, crlfDelay: Infinity });
    // A destroyed input (SIGTERM) emits 'close' but never 'end': close the reader so the loop below finishes.
    input.once('close', () => lines.close());

    for await (const rawLine of lines) {
      const line = rawLine.trim();
      if (line === '') continue;
      const work = this.handleLine(line, channel, send).catch((error: unknown) =>
        this.logger.error('stdio message failed', error instanceof Error ? error.stack : String(error)),
      );
      inFlight.add(work);
      void work.finally(() => inFlight.delete(work));
    }
    await Promise.all(inFlight);
    this.router.closeConnection(connection);
  }

  private async handleLine(line: string, channel: McpEraChannel, send: (message: JsonRpcMessage) => void): Promise<void> {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return send(parseErrorResponse());
    }
    const serving = this.router.serve(value, channel);
    const answer = serving instanceof Promise ? await serving : serving;
    if (answer.kind === 'refused') return send(errorResponse(answer.id, answer.error));
    // A batch answer is one JSON array on one line.
    if (answer.kind === 'reply' && answer.reply) send(answer.reply as JsonRpcMessage);
  }
}
