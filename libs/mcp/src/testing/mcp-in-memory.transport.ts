import type { JsonRpcMessage } from '../core/json-rpc/json-rpc.types.js';
import { McpTestConnection, type McpTestApp, type McpTestClientOptions } from './mcp-test.connection.js';
import { McpTestingMessages } from './mcp-testing.messages.js';

/** A JSON-RPC message as the SDK hands it over (`JSONRPCMessage`). @publicApi */
export type McpTransportMessage = Record<string, unknown>;

const WHERE = 'McpInMemoryTransport';

/**
 * An in-process transport for the official MCP SDK `Client` (the SDK's `Transport` shape, without importing it):
 * every message goes to the app's dispatcher as JSON, server messages come back through `onmessage`. `start()`
 * (called by `client.connect()`) initialises the app and checks the options (`McpConfigurationError`).
 * @publicApi
 * @example
 * ```ts
 * const client = new Client({ name: 'spec', version: '1.0.0' });
 * await client.connect(new McpInMemoryTransport(app, { principal: { subject: 'alice', scopes: ['weather:read'] } }));
 * const { tools } = await client.listTools();
 * await client.close();
 * ```
 */
export class McpInMemoryTransport {
  /** Set by the SDK: receives every server message. */
  onmessage?: (message: McpTransportMessage, extra?: unknown) => void;
  /** Set by the SDK: called once the transport is closed. */
  onclose?: () => void;
  /** Set by the SDK: a message that could not be handled. */
  onerror?: (error: Error) => void;
  /** Always undefined: like stdio, the connection itself is the session (no `Mcp-Session-Id`). */
  readonly sessionId?: string;
  private connection?: McpTestConnection;
  private closed = false;

  constructor(
    private readonly app: McpTestApp,
    private readonly options?: McpTestClientOptions,
  ) {}

  async start(): Promise<void> {
    if (this.connection) throw new Error(`${WHERE} already started; a transport serves one client`);
    if (this.closed) throw new Error(McpTestingMessages.closed(WHERE));
    this.connection = await McpTestConnection.open(WHERE, this.app, this.options, (message) => this.deliver(message));
  }

  /** Hands one client message to the dispatcher; resolves once it is accepted, as a socket write would. */
  async send(message: McpTransportMessage): Promise<void> {
    const connection = this.connection;
    if (!connection) throw new Error(`${WHERE}: send() before start(); connect the client first`);
    if (connection.isClosed) throw new Error(McpTestingMessages.closed(WHERE));
    void connection.dispatch(message as unknown as JsonRpcMessage).then(
      (answer) => answer && this.deliver(answer),
      (error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))),
    );
  }

  /** The revision the SDK negotiated in `initialize` (the connection already follows it). */
  setProtocolVersion(version: string): void {
    this.connection?.useProtocolVersion(version);
  }

  /** Cancels what is in flight and tells the SDK (`onclose`). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.connection?.close();
    this.onclose?.();
  }

  private deliver(message: JsonRpcMessage): void {
    if (this.closed) return;
    try {
      this.onmessage?.(message as unknown as McpTransportMessage);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
