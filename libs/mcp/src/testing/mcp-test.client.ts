import type { JsonRpcMessage } from '../core/json-rpc/json-rpc.types.js';
import { JsonRpcErrorCode } from '../core/json-rpc/json-rpc-error-codes.js';
import type { McpCallToolResult } from '../core/results/content.types.js';
import type { McpEnvelope } from '../core/results/envelope.types.js';
import type { McpToolDescriptor } from '../features/tools/mcp-tool-definition.interface.js';
import type { McpResourceOptions } from '../features/resources/mcp-resource-options.interface.js';
import type { McpReadResourceResult } from '../features/resources/resource-contents.js';
import type { McpPromptArgument } from '../features/prompts/mcp-prompt-options.interface.js';
import type { McpGetPromptResult } from '../features/prompts/prompt-messages.js';
import { McpRpcError } from './mcp-rpc.error.js';
import { checkHeaders, McpTestConnection, type McpTestApp, type McpTestClientOptions } from './mcp-test.connection.js';
import { McpTestingMessages } from './mcp-testing.messages.js';

/** What `tools/call` answered: the wire result and, when it carries one, the tool's envelope. @publicApi */
export interface McpTestToolCall<T = unknown> {
  /** The `tools/call` result as a client receives it (`content`, `structuredContent`, `isError`). */
  result: McpCallToolResult;
  /** The envelope (`success`, `error` or `pending`); undefined for a raw result (`McpResult.raw()`). */
  envelope: McpEnvelope<T> | undefined;
}

/** Options of one `McpTestClient.callTool`. @publicApi */
export interface McpTestCallOptions {
  /** This call's request headers, over the client's `headers` (e.g. another `x-api-key`). */
  headers?: Readonly<Record<string, string>>;
}

/** A message the server sent on its own during a request (progress, a log line, a list change). @publicApi */
export interface McpTestNotification {
  method: string;
  params?: Record<string, unknown>;
}

/** A prompt as `prompts/list` sends it. @publicApi */
export interface McpTestPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: McpPromptArgument[];
}

/** Pages a list follows before it gives up on a cursor that never ends. */
const MAX_PAGES = 1_000;

/**
 * Calls an app's tools, resources and prompts in-process, as JSON through the same dispatcher and call pipeline
 * as Streamable HTTP. Tool failures come back as envelopes; protocol errors reject with {@link McpRpcError}.
 * Unlike HTTP, a scope refusal is only the `FORBIDDEN` envelope (no 403); test the 2026-07-28 era over HTTP.
 * @publicApi
 * @example
 * ```ts
 * const moduleRef = await Test.createTestingModule({
 *   imports: [McpModule.forRoot({ name: 'weather', version: '1.0.0' })],
 *   providers: [WeatherTools],
 * }).compile();
 * const client = await McpTestClient.create(moduleRef, { principal: { subject: 'alice', scopes: ['weather:read'] } });
 * const { envelope } = await client.callTool('get_weather', { city: 'Paris' });
 * expect(envelope).toMatchObject({ status: 'success', data: { city: { name: 'Paris' } } });
 * await client.close();
 * await moduleRef.close();
 * ```
 */
export class McpTestClient {
  /** Server notifications sent while requests ran (progress, log lines at the `logging/setLevel` level, list changes). */
  readonly notifications: McpTestNotification[] = [];
  private nextId = 0;
  private connection!: McpTestConnection;

  private constructor() {}

  /** Opens a client on `app` (initialised here if needed); `McpConfigurationError` for bad options, app or principal. */
  static async create(app: McpTestApp, options?: McpTestClientOptions): Promise<McpTestClient> {
    const client = new McpTestClient();
    client.connection = await McpTestConnection.open('McpTestClient.create', app, options, (message) => client.receive(message));
    return client;
  }

  /** `tools/list`, every page: the tools this principal may see. */
  listTools(): Promise<McpToolDescriptor[]> {
    return this.listAll<McpToolDescriptor>('tools/list', 'tools');
  }

  /**
   * `tools/call`: resolves for every tool outcome, success or failure envelope alike. `options.headers` are this
   * call's request headers, over the client's (what a guard on the tool or route reads).
   */
  async callTool<T = unknown>(
    name: string,
    args: Record<string, unknown> = {},
    options: McpTestCallOptions = {},
  ): Promise<McpTestToolCall<T>> {
    const headers = options.headers === undefined ? undefined : checkHeaders('McpTestClient.callTool', options.headers);
    const result = (await this.send('tools/call', { name, arguments: args }, headers)) as unknown as McpCallToolResult;
    return { result, envelope: envelopeOf<T>(result) };
  }

  /** `resources/list`, every page. */
  listResources(): Promise<McpResourceOptions[]> {
    return this.listAll<McpResourceOptions>('resources/list', 'resources');
  }

  /** `resources/read`; an unknown URI rejects with {@link McpRpcError} (-32002). */
  async readResource(uri: string): Promise<McpReadResourceResult> {
    return (await this.request('resources/read', { uri })) as unknown as McpReadResourceResult;
  }

  /** `prompts/list`, every page. */
  listPrompts(): Promise<McpTestPrompt[]> {
    return this.listAll<McpTestPrompt>('prompts/list', 'prompts');
  }

  /** `prompts/get` (prompt arguments are strings, as on the wire). */
  async getPrompt(name: string, args: Record<string, string> = {}): Promise<McpGetPromptResult> {
    return (await this.request('prompts/get', { name, arguments: args })) as unknown as McpGetPromptResult;
  }

  /** Any other request (`ping`, `completion/complete`...): its `result`, or a {@link McpRpcError} rejection. */
  request(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    return this.send(method, params);
  }

  private async send(
    method: string,
    params: Record<string, unknown>,
    headers?: Readonly<Record<string, string>>,
  ): Promise<Record<string, unknown>> {
    const answer = await this.connection.dispatch({ jsonrpc: '2.0', id: ++this.nextId, method, params }, headers);
    if (!answer) throw new Error(McpTestingMessages.unanswered(method));
    if ('error' in answer) throw new McpRpcError(method, answer.error);
    return answer.result;
  }

  /** Cancels the requests still in flight (their handlers' signals abort); the app stays up for the test to close. */
  async close(): Promise<void> {
    this.connection.close();
  }

  private async listAll<T>(method: string, key: string): Promise<T[]> {
    const items: T[] = [];
    let cursor: unknown;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await this.request(method, cursor === undefined ? {} : { cursor });
      items.push(...((result[key] as T[] | undefined) ?? []));
      cursor = result.nextCursor;
      if (cursor === undefined) return items;
    }
    throw new Error(McpTestingMessages.tooManyPages(method, MAX_PAGES));
  }

  private receive(message: JsonRpcMessage): void {
    if (!('method' in message)) return;
    if (!('id' in message)) {
      this.notifications.push(
        message.params === undefined ? { method: message.method } : { method: message.method, params: message.params },
      );
      return;
    }
    // A server request: this client declares no capability for it; answer at once rather than let it time out.
    void this.connection
      .dispatch({
        jsonrpc: '2.0',
        id: message.id,
        error: { code: JsonRpcErrorCode.METHOD_NOT_FOUND, message: `McpTestClient does not answer ${message.method}` },
      })
      .catch(() => undefined);
  }
}

/** The envelope a `tools/call` result carries: `structuredContent`, else the JSON text of its first block. */
function envelopeOf<T>(result: McpCallToolResult): McpEnvelope<T> | undefined {
  if (isEnvelope(result.structuredContent)) return result.structuredContent as unknown as McpEnvelope<T>;
  const first = result.content?.[0];
  if (first?.type !== 'text') return undefined;
  try {
    const parsed: unknown = JSON.parse(first.text);
    return isEnvelope(parsed) ? (parsed as McpEnvelope<T>) : undefined;
  } catch {
    return undefined;
  }
}

function isEnvelope(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const status = (value as { status?: unknown }).status;
  return status === 'success' || status === 'error' || status === 'pending';
}
