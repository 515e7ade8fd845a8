import { Logger } from '@nestjs/common';
import { classifyMessage, errorResponse, notification, successResponse } from '../core/json-rpc/json-rpc.codec.js';
import { JsonRpcErrorCode } from '../core/json-rpc/json-rpc-error-codes.js';
import type { JsonRpcId, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../core/json-rpc/json-rpc.types.js';
import { isSupportedProtocolVersion, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '../core/protocol-revisions.js';
import type { McpClientCallOptions, McpClientOptions } from './mcp-client-options.interface.js';
import { McpClientError, orUnavailable } from './mcp-client.error.js';
import type {
  McpClientState,
  McpRemotePrompt,
  McpRemoteResource,
  McpRemoteResourceTemplate,
  McpRemoteTool,
  McpRemoteToolResult,
  McpServerNotification,
  McpServerSummary,
} from './mcp-client.types.js';
import type { McpClientTransport, McpClientTransportSink } from './transports/client-transport.interface.js';
import { HttpSseClientTransport } from './transports/http-sse.client-transport.js';
import { StdioClientTransport } from './transports/stdio.client-transport.js';
import { StreamableHttpClientTransport } from './transports/streamable-http.client-transport.js';
import { injectedTransportOf } from './transports/injected-transport.js';
import { negotiateEra, type McpNegotiatedEra } from './eras/era-negotiation.js';
import type { McpProbeAnswer } from './eras/era-probe.js';
import { keepListening, LISTEN_ACKNOWLEDGED, LISTEN_FILTER } from './eras/listen-loop.js';
import { answerInputRequests, MAX_INPUT_ROUNDS, retryParams } from './eras/input-rounds.js';
import { INPUT_REQUIRED_METHODS, META } from '../core/rev-2026-07-28.constants.js';
import { McpOAuthAuthorizer } from './auth/oauth-authorizer.js';
import type { McpRemoteSkill, McpSkillFile } from './skills/skill.types.js';
import { MCP_SKILLS_EXTENSION } from '../core/mcp-skills.constants.js';
import { checkSkillEntry, checkSkillListing, sameUriKey, skillsCapabilityOf } from './skills/skill-entry.js';
import { readSkillFile } from './skills/skill-file.js';
import { McpSkillVerificationError } from './skills/skill-verification.error.js';
import { completeResult, modernEnvelope, paramHeadersOf, type ModernIdentity, type ModernParamHeader } from './eras/rev-2026-07-28.wire.js';

const DEFAULTS = {
  timeoutMs: 60_000,
  connectTimeoutMs: 10_000,
  /** With the authorization code grant the first exchange waits for a user signing in. */
  signInTimeoutMs: 300_000,
  maxMessageBytes: 10 * 1024 * 1024,
  initialDelayMs: 500,
  maxDelayMs: 30_000,
};

/** Pages a listing follows at most: a server whose cursors never end cannot keep the client busy. */
const MAX_PAGES = 100;

const DEFAULT_CLIENT_INFO = { name: 'nest-mcp-client', version: '1.0.0' };

interface PendingRequest {
  readonly method: string;
  /** Answers the server's requests made for this call. */
  readonly onRequest?: McpClientCallOptions['onRequest'];
  /** The call's own headers: its cancellation and the answers to the server's requests carry them too. */
  readonly headers?: McpClientCallOptions['headers'];
  resolve(result: Record<string, unknown>): void;
  reject(error: Error): void;
}

type Listener<T> = (value: T) => void;

/**
 * An MCP client: connects to one server over Streamable HTTP (falling back to the 2024-11-05 HTTP+SSE transport
 * when the endpoint refuses the `initialize` POST with 404 or 405) or a stdio child process, negotiates the newest
 * revision both speak (2026-07-28 through `server/discover` where the server serves it, else `initialize`; see
 * the `protocol` option), and calls its tools, resources and prompts. It connects on the first call; a lost
 * connection (a dropped stream, an exited child) is opened again with backoff, and a session the server forgot is
 * initialized again and the request sent once more. Every request is bounded in time and size.
 * @publicApi
 */
export class McpClient {
  private readonly logger = new Logger('McpClient');
  private transport?: McpClientTransport;
  private connecting?: Promise<McpServerSummary>;
  private summary?: McpServerSummary;
  private currentState: McpClientState = 'idle';
  private error?: McpClientError;
  private readonly pending = new Map<JsonRpcId, PendingRequest>();
  private readonly progress = new Map<JsonRpcId, NonNullable<McpClientCallOptions['onProgress']>>();
  private nextId = 1;
  private legacySse = false;
  /** Set while the connection speaks the 2026-07-28 era: what every request's `_meta` envelope says. */
  private modernIdentity?: ModernIdentity;
  /**
   * The `x-mcp-header` arguments of each listed tool (2026-07-28 over HTTP mirrors them in `Mcp-Param-*`);
   * undefined until `tools/list` was read in that era.
   */
  private toolParamHeaders?: Map<string, readonly ModernParamHeader[]>;
  /** The `subscriptions/listen` kept open for `on('notification')` in the 2026-07-28 era; aborting it ends it. */
  private listening?: AbortController;
  private reconnectTimer?: NodeJS.Timeout;
  private reconnectDelay: number;
  private readonly listeners = {
    notification: new Set<Listener<McpServerNotification>>(),
    connected: new Set<Listener<McpServerSummary>>(),
    disconnected: new Set<Listener<McpClientError>>(),
  };

  /**
   * The OAuth client of an HTTP server with the `auth` option: kept across reconnections, like its tokens (one for
   * the URL as an SSE endpoint once the server turned out to be a 2024-11-05 one).
   */
  private authorizer?: McpOAuthAuthorizer;

  /** Throws `CONFIG` when the options cannot work (an `auth` option missing what its grant needs). */
  constructor(private readonly options: McpClientOptions) {
    if ('url' in options && options.auth) this.authorizer = new McpOAuthAuthorizer(options.auth, new URL(options.url));
    this.reconnectDelay = this.reconnectOptions?.initialDelayMs ?? DEFAULTS.initialDelayMs;
  }

  /** `idle` (never connected), `connecting`, `connected`, `disconnected` (reconnecting with backoff) or `closed`. */
  get state(): McpClientState {
    return this.currentState;
  }

  /** The server, once connected. */
  get server(): McpServerSummary | undefined {
    return this.summary;
  }

  /** Why the last connection failed or was lost (cleared once connected again). */
  get lastError(): McpClientError | undefined {
    return this.error;
  }

  /**
   * Listens to the server's notifications (`list_changed`, log messages, …); returns the unsubscribe function. In
   * the 2026-07-28 era the list changes come through a `subscriptions/listen` the client keeps open while a
   * notification listener exists (log messages and progress belong to their request there).
   */
  on(event: 'notification', listener: (notification: McpServerNotification) => void): () => void;
  /** Listens to every successful connection (the first and each reconnection). */
  on(event: 'connected', listener: (server: McpServerSummary) => void): () => void;
  /** Listens to every lost connection. */
  on(event: 'disconnected', listener: (error: McpClientError) => void): () => void;
  on(event: 'notification' | 'connected' | 'disconnected', listener: (value: never) => void): () => void {
    const set = this.listeners[event] as Set<Listener<never>>;
    set.add(listener);
    if (event === 'notification') this.keepListen();
    return () => set.delete(listener);
  }

  /** Connects and initializes (once; concurrent callers share the attempt). Rejects with `UNAVAILABLE`, `TIMEOUT`, `PROTOCOL`. */
  connect(): Promise<McpServerSummary> {
    if (this.currentState === 'closed') return Promise.reject(new McpClientError('CLOSED', 'The client was closed'));
    if (this.currentState === 'connected' && this.summary) return Promise.resolve(this.summary);
    clearTimeout(this.reconnectTimer);
    this.connecting ??= this.open().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  /** Closes the connection (ends the HTTP session, stops the child); pending requests reject with `CLOSED`. */
  async close(): Promise<void> {
    this.currentState = 'closed';
    clearTimeout(this.reconnectTimer);
    this.listening?.abort();
    const transport = this.transport;
    this.transport = undefined;
    this.failPending(new McpClientError('CLOSED', 'The client was closed'));
    await transport?.close();
  }

  /**
   * Every tool of the server (all pages). In the 2026-07-28 era a tool whose `x-mcp-header` annotations break the
   * rules is left out (its headers could not be sent).
   */
  async listTools(options?: McpClientCallOptions): Promise<McpRemoteTool[]> {
    let tools = await this.listAll<McpRemoteTool>('tools/list', 'tools', options);
    if (this.modernIdentity) {
      const headers = new Map<string, readonly ModernParamHeader[]>();
      tools = tools.filter((tool) => {
        const found = paramHeadersOf(tool.inputSchema);
        if (found?.length) headers.set(tool.name, found);
        return found !== undefined;
      });
      this.toolParamHeaders = headers;
    }
    return tools;
  }

  /**
   * Calls a tool; progress goes to `onProgress`, aborting `signal` cancels it on the server. In the 2026-07-28
   * era over HTTP the first call reads `tools/list` once (unless it was), to send the `Mcp-Param-*` headers a
   * tool's `x-mcp-header` arguments ask for.
   */
  async callTool(name: string, args: Record<string, unknown> = {}, options: McpClientCallOptions = {}): Promise<McpRemoteToolResult> {
    await this.connect();
    if (this.modernIdentity && !this.toolParamHeaders && this.transport?.kind === 'streamable-http') {
      await this.listTools({ signal: options.signal, timeoutMs: options.timeoutMs }).catch(() => (this.toolParamHeaders = new Map()));
    }
    return (await this.request('tools/call', { name, arguments: args }, options)) as McpRemoteToolResult;
  }

  async listResources(options?: McpClientCallOptions): Promise<McpRemoteResource[]> {
    return this.listAll<McpRemoteResource>('resources/list', 'resources', options);
  }

  async listResourceTemplates(options?: McpClientCallOptions): Promise<McpRemoteResourceTemplate[]> {
    return this.listAll<McpRemoteResourceTemplate>('resources/templates/list', 'resourceTemplates', options);
  }

  async readResource(uri: string, options?: McpClientCallOptions): Promise<{ contents: Record<string, unknown>[] }> {
    return (await this.request('resources/read', { uri }, options)) as { contents: Record<string, unknown>[] };
  }

  async listPrompts(options?: McpClientCallOptions): Promise<McpRemotePrompt[]> {
    return this.listAll<McpRemotePrompt>('prompts/list', 'prompts', options);
  }

  async getPrompt(
    name: string,
    args: Record<string, string> = {},
    options?: McpClientCallOptions,
  ): Promise<{ description?: string; messages: Record<string, unknown>[] }> {
    return (await this.request('prompts/get', { name, arguments: args }, options)) as { messages: Record<string, unknown>[] };
  }

  /**
   * Every skill of the server (SEP-2640, all pages), each entry checked ({@link McpRemoteSkill}); a malformed entry,
   * one over the limits (512 files, 16 MiB) or a URI listed twice is left out with a warning saying why. Reads no
   * file: a skill's files are read when the caller loads it ({@link readSkillFile}). Empty when the server does not
   * declare the extension (which proves nothing: a skill can still be got by its URI from a server that does).
   */
  async listSkills(options?: McpClientCallOptions): Promise<McpRemoteSkill[]> {
    if (!skillsCapabilityOf((await this.connect()).capabilities)) return [];
    const { skills, refused } = checkSkillListing(await this.listAll<unknown>('skills/list', 'skills', options));
    for (const refusal of refused) this.logger.warn(`${this.describe()}: skills/list: ${refusal.message}; left out`);
    return skills;
  }

  /**
   * One skill by the URI of its `SKILL.md`, listed or not (a skill named in the server's instructions or in
   * another skill). Rejects with `UNSUPPORTED` when the server does not declare the extension, `RPC` -32602 when
   * it serves no skill there, an {@link McpSkillVerificationError} when the entry is malformed or over the limits.
   */
  async getSkill(uri: string, options?: McpClientCallOptions): Promise<McpRemoteSkill> {
    await this.requireSkills();
    const entry = checkSkillEntry((await this.request('skills/get', { uri }, options)).skill, uri);
    if (entry instanceof McpSkillVerificationError) throw entry;
    if (sameUriKey(entry.uri) !== sameUriKey(uri))
      throw new McpSkillVerificationError('entry', uri, `skills/get for ${uri} answered the skill ${entry.uri}`);
    return entry;
  }

  /**
   * Reads one file of a skill (`SKILL.md` by default, else a path under the skill's folder or a URI) and verifies
   * it against the entry the caller holds: a file the entry does not list is refused before any request, then the
   * size, the sha256 digest and, for `SKILL.md`, the frontmatter must match. A refusal is an
   * {@link McpSkillVerificationError} (code `VERIFICATION`): the content must not be used. After one, get the
   * skill again (`getSkill`) and have its new file set approved.
   */
  async readSkillFile(skill: McpRemoteSkill, ref?: string, options?: McpClientCallOptions): Promise<McpSkillFile> {
    return readSkillFile((uri) => this.readResource(uri, options), skill, ref);
  }

  /**
   * The direct children of a directory resource (`skill://pdf-processing/templates`), all pages, through
   * `resources/directory/read`; subdirectories carry `mimeType: 'inode/directory'`. A live view of the server,
   * not a file list to trust: read a skill's files through its entry. Rejects with `UNSUPPORTED` unless the
   * server declares `directoryRead`.
   */
  async readSkillDirectory(uri: string, options?: McpClientCallOptions): Promise<McpRemoteResource[]> {
    if ((await this.requireSkills()).directoryRead !== true)
      throw new McpClientError('UNSUPPORTED', `The server does not declare ${MCP_SKILLS_EXTENSION} directoryRead`);
    return this.listAll<McpRemoteResource>('resources/directory/read', 'resources', options, { uri });
  }

  /** The server's declaration of the Skills extension; `UNSUPPORTED` without one. */
  private async requireSkills(): Promise<Record<string, unknown>> {
    const declared = skillsCapabilityOf((await this.connect()).capabilities);
    if (!declared) throw new McpClientError('UNSUPPORTED', `The server does not declare the ${MCP_SKILLS_EXTENSION} extension`);
    return declared;
  }

  /** `ping`; in the 2026-07-28 era, which has no `ping`, a `server/discover`. */
  async ping(options?: McpClientCallOptions): Promise<void> {
    await this.connect();
    await this.request(this.modernIdentity ? 'server/discover' : 'ping', undefined, options);
  }

  /**
   * Sends any request (connecting first); a session the server forgot is initialized again and the request sent
   * once more. In the 2026-07-28 era an `input_required` result is answered (the call's `onRequest`, else the
   * client's) and the request retried, and `resultType` is dropped from the result. Rejects with an {@link McpClientError}.
   */
  async request(method: string, params?: Record<string, unknown>, options: McpClientCallOptions = {}): Promise<Record<string, unknown>> {
    const result = await this.requestOnce(method, params, options);
    return this.modernIdentity ? this.completeRounds(method, params, options, result) : result;
  }

  /** Sends a notification (connecting first). */
  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    await this.connect();
    await this.transport!.send(this.notificationOf(method, params));
  }

  /** One request, sent again once after the server forgot the session. */
  private async requestOnce(method: string, params: Record<string, unknown> | undefined, options: McpClientCallOptions) {
    await this.connect();
    try {
      return await this.exchange(this.transport!, method, params, options);
    } catch (error) {
      if (!(error instanceof McpClientError) || error.code !== 'SESSION_EXPIRED') throw error;
      this.logger.debug(`${this.describe()}: the session expired; initializing again`);
      this.currentState = 'disconnected';
      await this.transport?.close();
      await this.connect();
      return this.exchange(this.transport!, method, params, options);
    }
  }

  /**
   * The rounds of a 2026-07-28 multi round-trip request: while the server answers `input_required`, answer its
   * `inputRequests` and send the original params again with `inputResponses` and its `requestState`.
   */
  private async completeRounds(
    method: string,
    params: Record<string, unknown> | undefined,
    options: McpClientCallOptions,
    first: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    let result = first;
    for (let round = 0; ; round++) {
      const type = result.resultType;
      if (type === undefined || type === 'complete') return completeResult(result);
      if (type !== 'input_required' || !INPUT_REQUIRED_METHODS.has(method)) {
        throw new McpClientError('PROTOCOL', `${method} answered resultType ${JSON.stringify(type)}`);
      }
      if (round >= MAX_INPUT_ROUNDS)
        throw new McpClientError('PROTOCOL', `${method} still asked for input after ${MAX_INPUT_ROUNDS} rounds`);
      const responses = await answerInputRequests(method, result.inputRequests, options.onRequest ?? this.options.onRequest);
      result = await this.requestOnce(method, retryParams(params, responses, result.requestState), options);
    }
  }

  /** A notification, with the 2026-07-28 envelope in that era. */
  private notificationOf(method: string, params?: Record<string, unknown>): Record<string, unknown> {
    const identity = this.modernIdentity;
    const withMeta = identity ? { ...params, _meta: { ...(params?._meta as object), ...modernEnvelope(identity) } } : params;
    return notification(method, withMeta) as unknown as Record<string, unknown>;
  }

  private get reconnectOptions() {
    return this.options.reconnect === false ? undefined : (this.options.reconnect ?? {});
  }

  private get connectTimeoutMs(): number {
    const signIn = 'url' in this.options && this.options.auth?.grant.type === 'authorization_code';
    return this.options.connectTimeoutMs ?? (signIn ? DEFAULTS.signInTimeoutMs : DEFAULTS.connectTimeoutMs);
  }

  private get maxBytes(): number {
    return this.options.maxMessageBytes ?? DEFAULTS.maxMessageBytes;
  }

  private describe(): string {
    return 'url' in this.options ? new URL(this.options.url).origin : this.options.command;
  }

  private createTransport(): McpClientTransport {
    const injected = injectedTransportOf(this);
    if (injected) return injected();
    if (!('url' in this.options)) return new StdioClientTransport(this.options, this.maxBytes);
    const connectTimeoutMs = this.connectTimeoutMs;
    return this.legacySse
      ? new HttpSseClientTransport(this.options, this.maxBytes, connectTimeoutMs, this.authorizer)
      : new StreamableHttpClientTransport(this.options, this.maxBytes, this.authorizer);
  }

  private async open(): Promise<McpServerSummary> {
    this.currentState = 'connecting';
    try {
      let summary: McpServerSummary;
      try {
        summary = await this.openOnce();
      } catch (error) {
        const refused = error instanceof McpClientError && error.code === 'PROTOCOL' && (error.status === 404 || error.status === 405);
        if (!refused || this.legacySse || !('url' in this.options)) throw error;
        // No Streamable HTTP endpoint there: a 2024-11-05 server answers the same URL with an SSE stream.
        this.legacySse = true;
        if (this.options.auth) this.authorizer = new McpOAuthAuthorizer(this.options.auth, new URL(this.options.url), true);
        summary = await this.openOnce();
      }
      if (this.currentState !== 'connecting') throw new McpClientError('CLOSED', 'The client was closed');
      this.summary = summary;
      this.currentState = 'connected';
      this.error = undefined;
      this.reconnectDelay = this.reconnectOptions?.initialDelayMs ?? DEFAULTS.initialDelayMs;
      for (const listener of this.listeners.connected) listener(summary);
      // A listen of the previous connection ends with it: a fresh one for this connection.
      this.listening?.abort();
      this.listening = undefined;
      this.keepListen();
      return summary;
    } catch (error) {
      const failure = orUnavailable(error, 'The connection failed');
      if ((this.currentState as McpClientState) !== 'closed') {
        this.currentState = 'disconnected';
        this.error = failure;
        this.scheduleReconnect();
      }
      throw failure;
    }
  }

  /**
   * One transport, opened and initialized within `connectTimeoutMs`; closed again when anything fails. Unless
   * pinned to `legacy` (or on the 2024-11-05 fallback), it first probes `server/discover` for the 2026-07-28 era.
   */
  private async openOnce(skipProbe = false): Promise<McpServerSummary> {
    const transport = this.createTransport();
    this.transport = transport;
    this.modernIdentity = undefined;
    this.toolParamHeaders = undefined;
    const timeoutMs = this.connectTimeoutMs;
    const protocol = this.options.protocol ?? 'auto';
    try {
      const timeout = new Promise<never>((_, reject) =>
        setTimeout(() => reject(new McpClientError('TIMEOUT', `No connection within ${timeoutMs} ms`)), timeoutMs).unref(),
      );
      await Promise.race([transport.open(this.sinkFor(transport)), timeout]);
      if (protocol !== 'legacy' && !this.legacySse && !skipProbe) {
        const era = await this.probeEra(transport, timeoutMs);
        if (era.kind === 'modern') return this.startModern(transport, era.version, era.discover);
        if (protocol === '2026-07-28') {
          throw new McpClientError('PROTOCOL', `The server does not speak 2026-07-28 (${era.reason}) and the client is pinned to it`);
        }
        this.logger.debug(`${this.describe()}: ${era.reason}; initializing`);
        if (this.transport !== transport) {
          // The child did not survive the probe: a fresh one, straight to initialize.
          this.currentState = 'connecting';
          return await this.openOnce(true);
        }
      }
      const result = await this.exchange(transport, 'initialize', { ...this.identityAt(LATEST_PROTOCOL_VERSION) }, { timeoutMs });
      const version = result.protocolVersion;
      if (!isSupportedProtocolVersion(version)) {
        throw new McpClientError(
          'PROTOCOL',
          `The server speaks revision ${String(version)}; this client speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`,
        );
      }
      const listening = transport.initialized?.(version);
      await transport.send(notification('notifications/initialized') as unknown as Record<string, unknown>);
      await listening;
      return summaryOf(transport, version, result);
    } catch (error) {
      if (this.transport === transport) this.transport = undefined;
      await transport.close().catch(() => undefined);
      throw error;
    }
  }

  /** The dual-era probe: HTTP through the transport's raw POST (the status counts), a process as one request. */
  private probeEra(transport: McpClientTransport, timeoutMs: number): Promise<McpNegotiatedEra> {
    const probe = async (version: string): Promise<McpProbeAnswer> => {
      const meta = modernEnvelope(this.identityAt(version));
      if (transport.probe) {
        const message = {
          jsonrpc: '2.0',
          id: `server-discover-probe-${this.nextId++}`,
          method: 'server/discover',
          params: { _meta: meta },
        };
        return transport.probe(message, AbortSignal.timeout(timeoutMs));
      }
      try {
        // A child answers once it has booted (a Nest app: seconds), so the probe has the whole connect budget.
        const result = await this.exchange(transport, 'server/discover', undefined, { meta, timeoutMs });
        return { json: true, body: { jsonrpc: '2.0', id: 0, result } };
      } catch (error) {
        if (error instanceof McpClientError && error.code === 'RPC') {
          return { json: true, body: { jsonrpc: '2.0', id: 0, error: { code: error.rpcCode, message: error.message, data: error.data } } };
        }
        return { failure: orUnavailable(error, 'server/discover failed') };
      }
    };
    return negotiateEra(probe, transport.probe ? 'http' : 'process');
  }

  private identityAt(protocolVersion: string): ModernIdentity {
    return { protocolVersion, capabilities: this.options.capabilities ?? {}, clientInfo: this.options.clientInfo ?? DEFAULT_CLIENT_INFO };
  }

  /** The 2026-07-28 era at `version`: no handshake, the envelope on every request from now on. */
  private startModern(transport: McpClientTransport, version: string, discover: Record<string, unknown>): McpServerSummary {
    transport.modern?.(version, (tool) => this.toolParamHeaders?.get(tool));
    this.modernIdentity = this.identityAt(version);
    return summaryOf(transport, version, discover);
  }

  /** Opens the 2026-07-28 listen when connected in that era with a notification listener (once; it ends by itself). */
  private keepListen(): void {
    const wanted = () => this.modernIdentity !== undefined && this.currentState === 'connected' && this.listeners.notification.size > 0;
    if (this.listening || !wanted()) return;
    const listening = new AbortController();
    this.listening = listening;
    const open = (): Promise<'stop' | undefined> =>
      this.exchange(
        this.transport!,
        'subscriptions/listen',
        { notifications: LISTEN_FILTER },
        { signal: listening.signal, timeoutMs: Infinity },
      ).then(
        () => undefined,
        // A server that refuses to listen (no listChanged to offer: -32601) is not asked again on this connection.
        (error: unknown) => (error instanceof McpClientError && error.code === 'RPC' ? 'stop' : undefined),
      );
    void keepListening(open, () => wanted() && this.transport !== undefined, listening.signal).finally(() => {
      if (this.listening === listening) this.listening = undefined;
    });
  }

  private scheduleReconnect(): void {
    const reconnect = this.reconnectOptions;
    if (!reconnect || this.currentState === 'closed') return;
    clearTimeout(this.reconnectTimer);
    const delay = this.reconnectDelay;
    this.reconnectDelay = Math.min(delay * 2, reconnect.maxDelayMs ?? DEFAULTS.maxDelayMs);
    this.reconnectTimer = setTimeout(() => void this.connect().catch(() => undefined), delay);
    this.reconnectTimer.unref();
  }

  /** The sink of one transport: what a replaced transport reports afterwards is ignored. */
  private sinkFor(transport: McpClientTransport): McpClientTransportSink {
    return {
      message: (value, related) => {
        if (this.transport === transport) this.receive(transport, value, related);
      },
      lost: (id, error) => this.settle(id, undefined, error),
      closed: (error) => {
        if (this.transport !== transport) return;
        this.transport = undefined;
        void transport.close().catch(() => undefined);
        const failure = orUnavailable(error, 'The connection was lost');
        this.failPending(failure);
        if (this.currentState === 'closed') return;
        const wasConnected = this.currentState === 'connected';
        this.currentState = 'disconnected';
        this.error = failure;
        this.logger.warn(`${this.describe()}: ${failure.message}`);
        for (const listener of this.listeners.disconnected) listener(failure);
        if (wasConnected) this.scheduleReconnect();
      },
    };
  }

  private exchange(
    transport: McpClientTransport,
    method: string,
    params: Record<string, unknown> | undefined,
    options: McpClientCallOptions,
  ): Promise<Record<string, unknown>> {
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(new McpClientError('CANCELLED', 'Cancelled before it was sent'));
    const id = this.nextId++;
    const identity = this.modernIdentity;
    const meta: Record<string, unknown> = Object.assign({}, options.meta, identity && modernEnvelope(identity));
    if (options.onProgress) meta.progressToken = id;
    const message: JsonRpcRequest = { jsonrpc: '2.0', id, method };
    // Assignments rather than `{ ...params, _meta }` ("Hot paths" in docs/architecture.md).
    const withMeta = Object.keys(meta).length > 0;
    if (params !== undefined || withMeta) {
      const sent: Record<string, unknown> = Object.assign({}, params);
      if (withMeta) sent._meta = meta;
      message.params = sent;
    }
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs ?? DEFAULTS.timeoutMs;
    const sending = new AbortController();
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      let timer: NodeJS.Timeout;
      const cancel = (reason: string, error: McpClientError) => {
        if (!this.pending.has(id)) return;
        this.settle(id, undefined, error);
        sending.abort(error);
        // Over HTTP in the 2026-07-28 era, closing the response (the abort above) is the cancellation.
        if (method !== 'initialize' && !(identity && transport.kind === 'streamable-http')) {
          void transport
            .send(this.notificationOf('notifications/cancelled', { requestId: id, reason }), undefined, options.headers)
            .catch(() => undefined);
        }
      };
      const arm = () => {
        clearTimeout(timer);
        if (timeoutMs === Infinity) return; // a 2026-07-28 listen: open until it ends
        timer = setTimeout(() => cancel('timeout', new McpClientError('TIMEOUT', `${method} took longer than ${timeoutMs} ms`)), timeoutMs);
      };
      const onAbort = () => cancel('cancelled by the caller', new McpClientError('CANCELLED', 'Cancelled by the caller'));
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.progress.delete(id);
      };
      this.pending.set(id, {
        method,
        onRequest: options.onRequest,
        headers: options.headers,
        resolve: (result) => (done(), resolve(result)),
        // A failed request (closed, lost, timed out) stops its HTTP exchange too.
        reject: (error) => (done(), sending.abort(error), reject(error)),
      });
      if (options.onProgress) {
        const onProgress = options.onProgress;
        this.progress.set(id, (update) => (arm(), onProgress(update)));
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      arm();
      transport.send(message as unknown as Record<string, unknown>, sending.signal, options.headers).catch((error: unknown) => {
        if (sending.signal.aborted) return;
        this.settle(id, undefined, orUnavailable(error, 'The request could not be sent'));
      });
    });
  }

  private settle(id: JsonRpcId, result: Record<string, unknown> | undefined, error?: Error): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    if (error) pending.reject(error);
    else pending.resolve(result ?? {});
  }

  private failPending(error: McpClientError): void {
    for (const id of [...this.pending.keys()]) this.settle(id, undefined, error);
  }

  private receive(transport: McpClientTransport, value: unknown, related?: JsonRpcId): void {
    if (Array.isArray(value)) {
      for (const one of value) this.receive(transport, one, related);
      return;
    }
    const classified = classifyMessage(value);
    switch (classified.kind) {
      case 'response':
        return this.answer(classified.message);
      case 'notification':
        return this.notified(classified.message);
      case 'request':
        return void this.serve(transport, classified.message, related);
      case 'invalid':
        this.logger.debug(`${this.describe()}: ignored an invalid message (${classified.reason})`);
    }
  }

  private answer(response: JsonRpcResponse): void {
    if ('error' in response) {
      const { code, message, data } = response.error;
      return this.settle(response.id!, undefined, new McpClientError('RPC', String(message), { rpcCode: code, data }));
    }
    this.settle(response.id, response.result);
  }

  private notified(message: JsonRpcNotification): void {
    if (message.method === 'notifications/progress') {
      const params = message.params ?? {};
      const onProgress = this.progress.get(params.progressToken as JsonRpcId);
      if (onProgress && typeof params.progress === 'number') {
        onProgress({
          progress: params.progress,
          ...(typeof params.total === 'number' && { total: params.total }),
          ...(typeof params.message === 'string' && { message: params.message }),
        });
      }
      return;
    }
    if (message.method === LISTEN_ACKNOWLEDGED) return;
    for (const listener of this.listeners.notification)
      listener({ method: message.method, ...(message.params && { params: message.params }) });
  }

  /**
   * The server's own requests: `ping`, else the `onRequest` of {@link answererOf}, else -32601. A handler that
   * throws an McpClientError with an `rpcCode` answers that error; anything else it throws answers -32603.
   */
  private async serve(transport: McpClientTransport, request: JsonRpcRequest, related?: JsonRpcId): Promise<void> {
    // Read now: the call may have settled by the time the answer is ready.
    const headers = related === undefined ? undefined : this.pending.get(related)?.headers;
    let reply: JsonRpcMessage;
    try {
      const result = request.method === 'ping' ? {} : await this.answererOf(related)?.(request.method, request.params);
      reply =
        result === undefined
          ? errorResponse(request.id, { code: JsonRpcErrorCode.METHOD_NOT_FOUND, message: `This client does not answer ${request.method}` })
          : successResponse(request.id, result);
    } catch (error) {
      const text = error instanceof McpClientError ? error.message : 'The client could not answer';
      const code = error instanceof McpClientError && error.rpcCode !== undefined ? error.rpcCode : JsonRpcErrorCode.INTERNAL_ERROR;
      reply = errorResponse(request.id, { code, message: text });
    }
    await transport.send(reply as unknown as Record<string, unknown>, undefined, headers).catch(() => undefined);
  }

  /**
   * Whose `onRequest` answers a server request: the call whose response stream carried it (Streamable HTTP), else
   * the one call in flight that has an `onRequest` (stdio and the GET stream say nothing of the call a request
   * belongs to: with several, an answer could come from the wrong caller), else the client's own.
   */
  private answererOf(related: JsonRpcId | undefined): McpClientCallOptions['onRequest'] {
    if (related !== undefined) return this.pending.get(related)?.onRequest ?? this.options.onRequest;
    let only: McpClientCallOptions['onRequest'];
    for (const pending of this.pending.values()) {
      if (!pending.onRequest) continue;
      if (only) return this.options.onRequest;
      only = pending.onRequest;
    }
    return only ?? this.options.onRequest;
  }

  private async listAll<T>(method: string, key: string, options?: McpClientCallOptions, params?: Record<string, unknown>): Promise<T[]> {
    const items: T[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await this.request(method, cursor === undefined ? params : { ...params, cursor }, options);
      const list = result[key];
      if (!Array.isArray(list)) throw new McpClientError('PROTOCOL', `${method} answered without ${key}`);
      items.push(...(list as T[]));
      cursor = typeof result.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined;
      if (cursor === undefined) return items;
    }
    throw new McpClientError('PROTOCOL', `${method} sent more than ${MAX_PAGES} pages`);
  }
}

/** The server as an `initialize` or `server/discover` result describes it (2026-07-28 puts `serverInfo` in `_meta`). */
function summaryOf(transport: McpClientTransport, protocolVersion: string, result: Record<string, unknown>): McpServerSummary {
  const serverInfo = (result._meta as Record<string, unknown> | undefined)?.[META.serverInfo] ?? result.serverInfo;
  return {
    protocolVersion,
    serverInfo: (serverInfo ?? { name: 'unknown', version: 'unknown' }) as McpServerSummary['serverInfo'],
    capabilities: (result.capabilities ?? {}) as Record<string, unknown>,
    ...(typeof result.instructions === 'string' && { instructions: result.instructions }),
    transport: transport.kind,
  };
}
