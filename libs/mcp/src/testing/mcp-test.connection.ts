import type { INestApplicationContext } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { McpAuthService } from '../auth/mcp-auth.service.js';
import { McpConfigurationError } from '../core/errors/mcp-configuration.error.js';
import type { JsonRpcId, JsonRpcMessage, JsonRpcResponse } from '../core/json-rpc/json-rpc.types.js';
import type { McpPrincipal } from '../core/mcp-principal.interface.js';
import { errorResponse } from '../core/json-rpc/json-rpc.codec.js';
import { McpEraRouter } from '../eras/mcp-era.router.js';
import type { McpEraChannel } from '../eras/mcp-era.channel.js';
import { McpDispatcher } from '../core/mcp.dispatcher.js';
import {
  LATEST_PROTOCOL_VERSION,
  isSupportedProtocolVersion,
  SUPPORTED_PROTOCOL_VERSIONS,
  type McpProtocolVersion,
} from '../core/protocol-revisions.js';
import { McpTestingMessages } from './mcp-testing.messages.js';
import { tenantOf } from '../core/tenant.js';
import { connectionCaller } from '../core/mcp-caller.js';

/** The caller a test speaks as: what an authenticator would have made of its credentials. @publicApi */
export interface McpTestPrincipal {
  /** Stable id of the caller (a JWT's `sub`, an API key's id). */
  subject: string;
  /** Data partition; default `default` (the tenant of unauthenticated calls). */
  tenant?: string;
  /** Granted scopes; default none. Tools whose `scopes` are not all granted answer a `FORBIDDEN` envelope. */
  scopes?: string[];
  /** Verified claims tools may read (`principal.claims`); default `{}`. */
  claims?: Record<string, unknown>;
}

/** Options of `McpTestClient.create` and `new McpInMemoryTransport`, checked when the connection opens. @publicApi */
export interface McpTestClientOptions {
  /** Who calls. Required when the app configures authentication (over HTTP a call without credentials is a 401). */
  principal?: McpTestPrincipal;
  /**
   * Request headers every call presents, as an HTTP client's would (an `x-api-key` or `authorization` a guard on a
   * tool or a controller route checks): guards read them from `switchToHttp().getRequest().headers`. They are not
   * authenticated here: `principal` is who calls.
   */
  headers?: Readonly<Record<string, string>>;
  /** Revision of the requests (default: the latest `initialize` negotiates); the SDK transport renegotiates it. */
  protocolVersion?: McpProtocolVersion;
}

/** The app under test: an `INestApplication` or a compiled `TestingModule` (initialised; no socket is opened). @publicApi */
export type McpTestApp = Pick<INestApplicationContext, 'get' | 'init'>;

const OPTION_KEYS = new Set(['principal', 'headers', 'protocolVersion']);

/**
 * One in-process connection (test client and in-memory transport), entered through the era router as stdio is, with
 * one channel: the era its messages claim serves them. Messages cross as JSON.
 */
export class McpTestConnection {
  private readonly channel: McpEraChannel;
  private closed = false;
  private readonly inFlight = new Set<JsonRpcId>();

  private constructor(
    private readonly where: string,
    private readonly router: McpEraRouter,
    private readonly dispatcher: McpDispatcher,
    principal: McpPrincipal | undefined,
    private readonly headers: Readonly<Record<string, string>> | undefined,
    protocolVersion: string,
    deliver: (message: JsonRpcMessage) => void,
  ) {
    const send = (message: JsonRpcMessage) => void (this.closed || deliver(overTheWire(message)));
    const sink = { send, end: send };
    this.channel = {
      transport: 'memory',
      principal,
      caller: connectionCaller('memory', principal, undefined, headers),
      connection: Object.assign(router.openConnection(protocolVersion), { clientCapabilities: {} }),
      cancellationScope: `memory:${randomUUID()}`,
      stream: () => sink,
      subscribe: () => sink,
    };
  }

  /** Checks the options and the app, initialises the app, and resolves its dispatcher. */
  static async open(
    where: string,
    app: McpTestApp,
    options: McpTestClientOptions | undefined,
    deliver: (message: JsonRpcMessage) => void,
  ): Promise<McpTestConnection> {
    const checked = checkTestClientOptions(where, options);
    if (typeof app !== 'object' || app === null || typeof app.get !== 'function')
      throw new McpConfigurationError(McpTestingMessages.notAnApp(where));
    // A compiled TestingModule has not run onModuleInit/onApplicationBootstrap yet (the dispatcher's handlers are
    // collected there); init() is idempotent on an app that already ran it.
    if (typeof app.init === 'function') await app.init();
    const dispatcher = resolveIn(app, McpDispatcher);
    const router = resolveIn(app, McpEraRouter);
    if (!dispatcher || !router) throw new McpConfigurationError(McpTestingMessages.noMcpModule(where));
    if (resolveIn(app, McpAuthService)?.enabled && !checked.principal)
      throw new McpConfigurationError(McpTestingMessages.principalRequired(where));
    return new McpTestConnection(where, router, dispatcher, checked.principal, checked.headers, checked.protocolVersion, deliver);
  }

  /**
   * Sends one client message; its answer, or undefined for notifications, responses and requests {@link close}
   * cancelled. `headers` are this message's own, over the connection's.
   */
  async dispatch(message: JsonRpcMessage, headers?: Readonly<Record<string, string>>): Promise<JsonRpcResponse | undefined> {
    if (this.closed) throw new Error(McpTestingMessages.closed(this.where));
    const wire = overTheWire(message);
    const id = 'method' in wire && 'id' in wire ? wire.id : undefined;
    if (id !== undefined) this.inFlight.add(id);
    try {
      // As stdio: `initialize` sets the connection's revision and the client's capabilities, and pins its era.
      const caller = headers && connectionCaller('memory', this.channel.principal, undefined, { ...this.headers, ...headers });
      const answer = await this.router.serve(wire, caller ? Object.assign({}, this.channel, { caller }) : this.channel);
      const reply = answer.kind === 'refused' ? errorResponse(answer.id, answer.error) : answer.kind === 'reply' ? answer.reply : undefined;
      return this.closed || !reply ? undefined : overTheWire(reply as JsonRpcResponse);
    } finally {
      if (id !== undefined) this.inFlight.delete(id);
    }
  }

  /** Follows the SDK client's `setProtocolVersion` (a revision we do not negotiate is ignored). */
  useProtocolVersion(version: string): void {
    if (isSupportedProtocolVersion(version)) this.channel.connection!.protocolVersion = version;
  }

  /** Cancels what is in flight (its handlers' signals abort) and refuses further messages. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const id of this.inFlight) this.dispatcher.cancel(this.channel.cancellationScope!, id, 'the test connection was closed');
    this.inFlight.clear();
    this.router.closeConnection(this.channel.connection!);
  }

  get isClosed(): boolean {
    return this.closed;
  }
}

/** The options after their checks: a whole principal and a revision. */
function checkTestClientOptions(
  where: string,
  options: McpTestClientOptions | undefined,
): { principal?: McpPrincipal; headers?: Readonly<Record<string, string>>; protocolVersion: McpProtocolVersion } {
  if (options === undefined) return { protocolVersion: LATEST_PROTOCOL_VERSION };
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new McpConfigurationError(McpTestingMessages.badOptions(where));
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.has(key)) throw new McpConfigurationError(McpTestingMessages.unknownOption(where, key));
  }
  const version = options.protocolVersion ?? LATEST_PROTOCOL_VERSION;
  if (!isSupportedProtocolVersion(version)) {
    throw new McpConfigurationError(McpTestingMessages.badProtocolVersion(where, version, SUPPORTED_PROTOCOL_VERSIONS));
  }
  return {
    principal: options.principal === undefined ? undefined : checkPrincipal(where, options.principal),
    headers: options.headers === undefined ? undefined : checkHeaders(where, options.headers),
    protocolVersion: version,
  };
}

/** A test principal after its checks, as an authenticator would have made it (`McpConfigurationError` otherwise). */
export function checkPrincipal(where: string, principal: McpTestPrincipal): McpPrincipal {
  const fail = (problem: string): never => {
    throw new McpConfigurationError(McpTestingMessages.badPrincipal(where, problem));
  };
  if (typeof principal !== 'object' || principal === null || Array.isArray(principal)) return fail('must be an object');
  if (typeof principal.subject !== 'string' || principal.subject === '') fail('needs a non-empty subject string');
  if (principal.tenant !== undefined && (typeof principal.tenant !== 'string' || principal.tenant === '')) {
    fail('has a tenant that is not a non-empty string');
  }
  if (principal.scopes !== undefined && (!Array.isArray(principal.scopes) || principal.scopes.some((scope) => typeof scope !== 'string'))) {
    fail('has scopes that are not an array of strings');
  }
  if (principal.claims !== undefined && (typeof principal.claims !== 'object' || principal.claims === null)) {
    fail('has claims that are not an object');
  }
  return {
    subject: principal.subject,
    tenant: tenantOf(principal),
    scopes: [...(principal.scopes ?? [])],
    claims: { ...principal.claims },
  };
}

/** Test headers after their checks: an object of string values (`McpConfigurationError` otherwise), copied. */
export function checkHeaders(where: string, headers: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  if (
    typeof headers !== 'object' ||
    headers === null ||
    Array.isArray(headers) ||
    Object.values(headers).some((value) => typeof value !== 'string')
  ) {
    throw new McpConfigurationError(McpTestingMessages.badHeaders(where));
  }
  return { ...headers };
}

/** The app's instance of `type` anywhere in its module tree, or undefined when it has none. */
export function resolveIn<T>(app: McpTestApp, type: new (...args: never[]) => T): T | undefined {
  try {
    return app.get(type, { strict: false });
  } catch {
    return undefined;
  }
}

/** A message as the other side of a socket would read it: plain JSON, nothing shared. */
function overTheWire<T>(message: T): T {
  return JSON.parse(JSON.stringify(message)) as T;
}
