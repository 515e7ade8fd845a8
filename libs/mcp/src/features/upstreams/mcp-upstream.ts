import { Logger } from '@nestjs/common';
import { McpClient } from '../../client/mcp-client.js';
import type { McpClientCallOptions, McpClientHttpOptions, McpClientOptions } from '../../client/mcp-client-options.interface.js';
import type { McpRemotePrompt, McpRemoteResource, McpRemoteResourceTemplate, McpRemoteTool } from '../../client/mcp-client.types.js';
import type { McpRemoteSkill, McpSkillFile } from '../../client/skills/skill.types.js';
import { skillsCapabilityOf } from '../../client/skills/skill-entry.js';
import { callerHeadersOf, clientCapabilitiesOf } from '../../core/caller-headers.js';
import type { McpHandlerContext } from '../mcp-handler-context.interface.js';
import type { McpToolContext } from '../../core/mcp-tool-context.interface.js';
import type { McpUpstreamOptions } from '../../options/mcp-upstream-options.interface.js';
import { CoalescedRead } from './coalesced-read.js';
import { RELAYED_CAPABILITIES, relayClientRequests } from './upstream-client-requests.js';
import { upstreamCallError } from './upstream-errors.js';
import { upstreamSessionKey, UpstreamSessions } from './upstream-sessions.js';
import { noteSentHeaders, withoutSentCredentials } from './upstream-sent-credentials.js';
import { OutboundCredential } from '../../auth/outbound/outbound-credential.js';
import type { McpKeyValueStore } from '../../stores/key-value.store.js';
import { McpToolError } from '../../core/errors/mcp-tool.error.js';
import { UpstreamUserAuthorization } from './user-auth/upstream-user-authorization.js';
import { McpClientError } from '../../client/mcp-client.error.js';
import { UpstreamAuthorizationRequiredError } from './user-auth/authorization-required.error.js';
import { UserAuthorizationMessages } from './user-auth/user-authorization.messages.js';
import { isMcpAuthorizationCodeAuth } from '../../options/authorization-code-auth.js';

/** Time to reach an upstream (connect, spawn, initialize): short, so a down upstream answers `UNAVAILABLE` within 5 s. */
const CONNECT_TIMEOUT_MS = 4_000;
/** How often a live upstream is pinged (an HTTP upstream that went away is only noticed so), and how long a ping may take. */
const PROBE_EVERY_MS = 5_000;
const PROBE_TIMEOUT_MS = 2_000;
/** Reconnection backoff of the upstream's own connection. */
const RECONNECT = { initialDelayMs: 500, maxDelayMs: 15_000 };

/** One kind of list an upstream serves. */
export type UpstreamListKind = 'tools' | 'prompts' | 'resources';

/** The upstream's components as last listed (kept while it is down). */
export interface UpstreamLists {
  tools: McpRemoteTool[];
  prompts: McpRemotePrompt[];
  resources: McpRemoteResource[];
  resourceTemplates: McpRemoteResourceTemplate[];
  /** Its Agent Skills (entries only: no file is read to list them). */
  skills: McpRemoteSkill[];
}

/** Who an upstream call is made for: the tenant and principal (its upstream session), and its caller's headers. */
export type UpstreamCaller = Pick<McpHandlerContext, 'tenant' | 'principal'>;

/** What `/health` reports of an upstream (`McpUpstreamHealth` but its `status`). */
export interface UpstreamStatus {
  readonly reachable: boolean;
  readonly transport: 'http' | 'stdio';
  readonly tools: number;
  readonly sessions?: number;
  readonly message?: string;
}

/**
 * One upstream server: its own connection (listing, `list_changed`, liveness pings; reconnecting with backoff),
 * and for HTTP one upstream session per calling tenant for calls. A stdio upstream is one child for every caller.
 */
export class McpUpstream {
  private readonly logger = new Logger('McpUpstreams');
  private readonly own: McpClient;
  private readonly sessions?: UpstreamSessions;
  /** The credential each call sends (the caller's, one exchanged for it, this server's own, or none). */
  private readonly credential: OutboundCredential;
  /** `auth.authorizationCode`: each user's own connection to the upstream. */
  readonly users?: UpstreamUserAuthorization;
  private readonly probe: NodeJS.Timeout;
  private reachable = false;
  private lastError?: string;
  readonly lists: UpstreamLists = { tools: [], prompts: [], resources: [], resourceTemplates: [], skills: [] };
  /** Called when a list was read again (after a `list_changed`, or on reconnection). */
  onLists?: (kind: UpstreamListKind) => void;
  /** Called with the upstream's URI of each `notifications/resources/updated` it sends. */
  onResourceUpdated?: (uri: string) => void;
  /** Upstream URIs subscribed to on the gateway's own connection (subscribed again after a reconnection). */
  private readonly watched = new Set<string>();
  /** Each list's `list_changed` reads, coalesced (a flood of notifications is a read or two, not one each). */
  private readonly relists = {
    tools: new CoalescedRead(() => this.relist('tools')),
    prompts: new CoalescedRead(() => this.relist('prompts')),
    resources: new CoalescedRead(() => this.relist('resources')),
  };

  constructor(
    readonly options: McpUpstreamOptions,
    private readonly defaultTimeoutMs: number,
    store?: McpKeyValueStore,
  ) {
    const perUser = isMcpAuthorizationCodeAuth(options.auth) ? options.auth.authorizationCode : undefined;
    const url = options.url;
    if (perUser && url !== undefined && store) {
      // The upstream's own URL is the resource its users' tokens (and this server's own) are for, unless told.
      const resolved = { ...perUser, resource: perUser.resource ?? url };
      options = { ...options, auth: { authorizationCode: resolved } };
      this.users = new UpstreamUserAuthorization(options.name, resolved, store);
    }
    this.credential = new OutboundCredential(options, `the upstream "${options.name}"`);
    this.own = new McpClient({ ...this.clientBase(), ...this.target({}), reconnect: RECONNECT });
    if (options.url !== undefined) {
      this.sessions = new UpstreamSessions(
        (tenant, callHeaders) => ({
          ...this.clientBase(),
          ...(this.target({ tenant }, callHeaders) as McpClientHttpOptions),
          reconnect: false,
        }),
        options.maxSessions,
        options.sessionIdleMs,
      );
    }
    this.probe = setInterval(() => void this.check(), PROBE_EVERY_MS);
    this.probe.unref();
  }

  get name(): string {
    return this.options.name;
  }

  get scopes(): readonly string[] {
    return this.options.scopes ?? [];
  }

  get timeoutMs(): number {
    return this.options.timeoutMs ?? this.defaultTimeoutMs;
  }

  status(): UpstreamStatus {
    return {
      reachable: this.reachable,
      transport: this.options.url !== undefined ? 'http' : 'stdio',
      tools: this.lists.tools.length,
      ...(this.sessions && { sessions: this.sessions.tenants.length }),
      ...(!this.reachable && { message: this.lastError ?? 'not connected yet' }),
    };
  }

  /** Connects and reads every list within `budgetMs`; an upstream down now is reached later by the reconnect loop. */
  async start(budgetMs: number): Promise<void> {
    const attempt = this.refresh();
    const late = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), budgetMs).unref());
    const outcome = await Promise.race([attempt.then(() => 'done' as const), late]).catch((error: unknown) => this.down(error));
    if (outcome === 'late') this.down(new Error(`no answer within ${budgetMs} ms`));
    // From now on: its list changes, and each reconnection, read the lists again.
    this.own.on('notification', (notification) => {
      const uri = notification.params?.uri;
      if (notification.method === 'notifications/resources/updated' && typeof uri === 'string' && this.watched.has(uri)) {
        this.onResourceUpdated?.(uri);
      }
      const kind = /^notifications\/(tools|prompts|resources)\/list_changed$/.exec(notification.method)?.[1] as
        UpstreamListKind | undefined;
      if (kind) this.relists[kind].request();
    });
    this.own.on('connected', () => {
      void this.refresh().then(
        () => (['tools', 'prompts', 'resources'] as const).forEach((kind) => this.onLists?.(kind)),
        (error: unknown) => this.down(error),
      );
      // A new connection (an HTTP session, a child process) holds none of the old one's subscriptions.
      if (this.subscribable) for (const uri of this.watched) void this.subscribe('resources/subscribe', uri);
    });
  }

  /**
   * Subscribes to one of the upstream's URIs on the gateway's own connection (once, however many of our callers
   * watch it): one upstream subscription per URI, not one per caller or tenant. Nothing when it offers none; an
   * upstream not reached yet is subscribed once connected.
   */
  async watch(uri: string): Promise<void> {
    const known = this.own.server !== undefined;
    if (this.watched.has(uri) || (known && !this.subscribable)) return;
    this.watched.add(uri);
    if (known) await this.subscribe('resources/subscribe', uri);
  }

  /** Ends the upstream subscription (nobody of ours watches the URI any more). */
  async unwatch(uri: string): Promise<void> {
    if (!this.watched.delete(uri) || !this.subscribable) return;
    await this.subscribe('resources/unsubscribe', uri);
  }

  async callTool(name: string, args: Record<string, unknown>, context: McpToolContext) {
    const call = () =>
      this.on(context, (client, headers) =>
        client.callTool(name, args, {
          signal: context.signal,
          timeoutMs: this.timeoutMs,
          headers,
          onProgress: (update) => context.reportProgress(update.progress, update.total, update.message),
          // Its sampling, elicitation and roots requests during the call go to our caller.
          onRequest: relayClientRequests(context),
        }),
      );
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof UpstreamAuthorizationRequiredError) || !asksByUrl(context)) throw error;
      // 2026-07-28 with URL-mode elicitation: an input_required round; the retry finds the user connected (or not).
      const answer = await context.elicit({ mode: 'url', message: UserAuthorizationMessages.elicitation(this.name), url: error.url });
      if (answer.action !== 'accept') throw error;
      return call();
    }
  }

  async getPrompt(name: string, args: Record<string, string>, context: McpHandlerContext) {
    return this.on(context, (client, headers) => client.getPrompt(name, args, this.callOptions(context, headers)));
  }

  async readResource(uri: string, context: McpHandlerContext) {
    return this.on(context, (client, headers) => client.readResource(uri, this.callOptions(context, headers)));
  }

  /** Whether the upstream declares the Skills extension (as last connected). */
  get servesSkills(): boolean {
    return this.own.server !== undefined && skillsCapabilityOf(this.own.server.capabilities) !== undefined;
  }

  /** Whether it declares `resources/directory/read` for its skills. */
  get readsSkillDirectories(): boolean {
    return this.own.server !== undefined && skillsCapabilityOf(this.own.server.capabilities)?.directoryRead === true;
  }

  /** Reads one file of its skill for our caller, verified against the entry (digest, size, frontmatter). */
  async readSkillFile(skill: McpRemoteSkill, uri: string, caller: UpstreamCaller, signal: AbortSignal): Promise<McpSkillFile> {
    return this.on(caller, (client) => client.readSkillFile(skill, uri, { signal, timeoutMs: this.timeoutMs }));
  }

  /** The direct children of one of its skill directories, for our caller. */
  async readSkillDirectory(uri: string, caller: UpstreamCaller, signal: AbortSignal) {
    return this.on(caller, (client) => client.readSkillDirectory(uri, { signal, timeoutMs: this.timeoutMs }));
  }

  async close(): Promise<void> {
    clearInterval(this.probe);
    await Promise.all([this.own.close(), this.sessions?.close()]);
  }

  /** The error our caller gets for a failed call; one that could not reach the upstream marks it down until a ping answers. */
  failure(error: unknown): Error {
    if (error instanceof McpClientError && error.code === 'UNAVAILABLE') this.down(error);
    return upstreamCallError(this.name, error);
  }

  private callOptions(context: McpHandlerContext, headers?: Readonly<Record<string, string>>): McpClientCallOptions {
    return { signal: context.signal, timeoutMs: this.timeoutMs, headers };
  }

  /**
   * Runs one call on the caller's upstream session with this call's own credential (a stdio upstream: the one child).
   * A session whose credential is the caller's is that caller's alone, so one caller's call never goes out with
   * another's credential nor on a session the upstream bound to another.
   */
  private async on<T>(
    context: UpstreamCaller,
    call: (client: McpClient, headers?: Readonly<Record<string, string>>) => Promise<T>,
  ): Promise<T> {
    const sessions = this.sessions;
    if (!sessions) return withoutSentCredentials(this.options.env ?? {}, undefined, () => call(this.own));
    const callerAuthorization = callerHeadersOf(context as McpToolContext)?.authorization;
    const key = upstreamSessionKey(context, this.credential.perCaller, callerAuthorization);
    const run = (authorization: string | undefined) =>
      withoutSentCredentials({}, authorization ? { authorization } : undefined, (headers) =>
        sessions.run(key, context.tenant, headers, call),
      );
    if (this.users) return this.asUser(context, this.users, run);
    return run(await this.credential.authorization(callerAuthorization));
  }

  /**
   * A call with the calling user's own upstream token; none yet: `UPSTREAM_AUTHORIZATION_REQUIRED` with a link of
   * theirs. A token the upstream refuses (401) before it expires is replaced by a refreshed one, once; refused again,
   * or with nothing to refresh, the connection is forgotten and the user asked to connect again.
   */
  private async asUser<T>(context: UpstreamCaller, users: UpstreamUserAuthorization, run: (authorization: string) => Promise<T>) {
    const subject = context.principal?.subject;
    if (subject === undefined) throw new McpToolError('UNAUTHORIZED', UserAuthorizationMessages.noUser(this.name));
    const user = { tenant: context.tenant, subject };
    let authorization = await users.authorization(user);
    for (let refreshed = false; authorization !== undefined; refreshed = true) {
      try {
        return await run(authorization);
      } catch (error) {
        if (!refusesCredential(error)) throw error;
      }
      if (refreshed) await users.disconnect(user);
      authorization = refreshed ? undefined : await users.refused(user, authorization);
    }
    throw new UpstreamAuthorizationRequiredError(this.name, await users.link(user));
  }

  private clientBase() {
    return {
      clientInfo: { name: 'nest-mcp-gateway', version: '1.0.0' },
      capabilities: RELAYED_CAPABILITIES,
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
      timeoutMs: this.timeoutMs,
      // An upstream is served through one session per tenant, with its log lines relayed: the initialize era.
      protocol: 'legacy' as const,
    };
  }

  private get subscribable(): boolean {
    const resources = this.own.server?.capabilities.resources;
    return typeof resources === 'object' && resources !== null && (resources as { subscribe?: unknown }).subscribe === true;
  }

  /** One subscribe or unsubscribe; a failure is logged (the upstream may be down: the reconnection subscribes again). */
  private async subscribe(method: 'resources/subscribe' | 'resources/unsubscribe', uri: string): Promise<void> {
    try {
      await this.own.request(method, { uri }, { timeoutMs: PROBE_TIMEOUT_MS });
    } catch (error) {
      this.logger.debug(`Upstream "${this.name}": ${method} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Where the upstream is, with the headers of one caller (`{}`: the gateway's own connection). */
  private target(
    caller: { tenant?: string },
    callHeaders?: (call: Readonly<Record<string, string>> | undefined) => Readonly<Record<string, string>> | undefined,
  ): McpClientOptions {
    const { url, command, args, env, cwd, headers, credentials } = this.options;
    if (url === undefined) return { command: command!, args, env, cwd };
    let resolved: Promise<Record<string, string>> | undefined;
    return {
      url,
      // `call`: the headers option of the client call a request is sent for (the client sends them over these).
      headers: async (call) => {
        resolved ??= Promise.resolve(credentials?.(caller) ?? {});
        // The gateway's own connection (listing, pings) signs in as itself when `auth` is set.
        const own = callHeaders ? undefined : await this.credential.ownAuthorization();
        // Object.assign, not a spread literal ("Hot paths" in docs/architecture.md).
        const sent = Object.assign({}, headers, await resolved, own ? { authorization: own } : callHeaders?.(call));
        noteSentHeaders(call, sent);
        return sent;
      },
    };
  }

  /** Reads every list the upstream serves (its capabilities say which). */
  private async refresh(): Promise<void> {
    const server = await this.own.connect();
    const caps = server.capabilities;
    const [tools, prompts, resources, resourceTemplates, skills] = await Promise.all([
      caps.tools ? this.own.listTools() : [],
      caps.prompts ? this.own.listPrompts() : [],
      caps.resources ? this.own.listResources() : [],
      caps.resources ? this.own.listResourceTemplates().catch(() => []) : [],
      // A skills listing that fails leaves the upstream's other lists served.
      this.own.listSkills().catch(() => []),
    ]);
    Object.assign(this.lists, { tools, prompts, resources, resourceTemplates, skills });
    this.up();
  }

  private async relist(kind: UpstreamListKind): Promise<void> {
    try {
      if (kind === 'tools') this.lists.tools = await this.own.listTools();
      else if (kind === 'prompts') this.lists.prompts = await this.own.listPrompts();
      else {
        this.lists.resources = await this.own.listResources();
        this.lists.resourceTemplates = await this.own.listResourceTemplates().catch(() => []);
        // Skills are resources: their change is announced as the resources' (SEP-2640).
        this.lists.skills = await this.own.listSkills();
      }
      this.onLists?.(kind);
    } catch (error) {
      this.down(error);
    }
  }

  private async check(): Promise<void> {
    try {
      await this.own.ping({ timeoutMs: PROBE_TIMEOUT_MS });
      this.up();
    } catch (error) {
      this.down(error);
    }
  }

  private up(): void {
    if (!this.reachable) this.logger.log(`Upstream "${this.name}" is reachable`);
    this.reachable = true;
    this.lastError = undefined;
  }

  private down(error: unknown): void {
    const reason = error instanceof Error ? error.message : String(error);
    if (this.reachable || this.lastError === undefined) this.logger.warn(`Upstream "${this.name}" is unreachable: ${reason}`);
    this.reachable = false;
    this.lastError = reason;
  }
}

/** A 2026-07-28 request whose client declared URL-mode elicitation (answered by an input_required round). */
function asksByUrl(context: McpToolContext): boolean {
  if (context.protocolVersion < '2026-07-28') return false;
  const elicitation = clientCapabilitiesOf(context)?.elicitation;
  return typeof elicitation === 'object' && elicitation !== null && typeof (elicitation as { url?: unknown }).url === 'object';
}

/** The upstream answered 401: the credential sent is not (or no longer) accepted there. */
function refusesCredential(error: unknown): boolean {
  return error instanceof McpClientError && error.status === 401;
}
