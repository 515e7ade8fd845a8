import type { INestApplicationContext } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { McpAuthService } from '../auth/mcp-auth.service.js';
import { McpConfigurationError } from '../core/errors/mcp-configuration.error.js';
import type { JsonRpcId, JsonRpcMessage, JsonRpcResponse } from '../core/json-rpc/json-rpc.types.js';
import type { McpLogLevel } from '../core/mcp-log-level.js';
import type { McpPrincipal } from '../core/mcp-principal.interface.js';
import type { McpRequestContext } from '../core/mcp-request-context.interface.js';
import { McpDispatcher } from '../core/mcp.dispatcher.js';
import {
  LATEST_PROTOCOL_VERSION,
  isSupportedProtocolVersion,
  negotiateProtocolVersion,
  SUPPORTED_PROTOCOL_VERSIONS,
  type McpProtocolVersion,
} from '../core/protocol-revisions.js';
import { McpTestingMessages } from './mcp-testing.messages.js';
import { tenantOf } from '../core/tenant.js';

/**
 * The caller a test speaks as: what an authenticator would have made of its credentials.
 * @publicApi
 */
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

/**
 * Options of `McpTestClient.create` and `new McpInMemoryTransport`, checked when the connection opens.
 * @publicApi
 */
export interface McpTestClientOptions {
  /** Who calls. Required when the app configures authentication (over HTTP a call without credentials is a 401). */
  principal?: McpTestPrincipal;
  /** Revision of the requests (default: the latest `initialize` negotiates); the SDK transport renegotiates it. */
  protocolVersion?: McpProtocolVersion;
}

/**
 * What the test client needs of the app under test: an `INestApplication` or a compiled `TestingModule`, which
 * it initialises (`init()` runs the lifecycle hooks once; no socket is opened).
 * @publicApi
 */
export type McpTestApp = Pick<INestApplicationContext, 'get' | 'init'>;

const OPTION_KEYS = new Set(['principal', 'protocolVersion']);

/**
 * One in-process connection to an app's dispatcher, shared by `McpTestClient` and `McpInMemoryTransport`: the
 * request context the HTTP transport would build (principal, protocol version, a cancellation scope), with
 * server messages (progress, log lines, server requests) going to `deliver`. Every message crosses as JSON, as
 * it would on a socket.
 */
export class McpTestConnection {
  private protocolVersion: string;
  private clientCapabilities: Record<string, unknown> = {};
  private logLevel?: McpLogLevel;
  private closed = false;
  private readonly scope = `memory:${randomUUID()}`;
  private readonly inFlight = new Set<JsonRpcId>();

  private constructor(
    private readonly where: string,
    private readonly dispatcher: McpDispatcher,
    private readonly principal: McpPrincipal | undefined,
    protocolVersion: string,
    private readonly deliver: (message: JsonRpcMessage) => void,
  ) {
    this.protocolVersion = protocolVersion;
  }

  /** Checks the options and the app, initialises the app, and resolves its dispatcher. */
  static async open(
    where: string,
    app: McpTestApp,
    options: McpTestClientOptions | undefined,
    deliver: (message: JsonRpcMessage) => void,
  ): Promise<McpTestConnection> {
    const checked = checkTestClientOptions(where, options);
    if (typeof app !== 'object' || app === null || typeof app.get !== 'function') {
      throw new McpConfigurationError(McpTestingMessages.notAnApp(where));
    }
    // A compiled TestingModule has not run onModuleInit/onApplicationBootstrap yet (the dispatcher's handlers are
    // collected there); init() is idempotent on an app that already ran it.
    if (typeof app.init === 'function') await app.init();
    const dispatcher = resolveIn(app, McpDispatcher);
    if (!dispatcher) throw new McpConfigurationError(McpTestingMessages.noMcpModule(where));
    if (resolveIn(app, McpAuthService)?.enabled && !checked.principal) {
      throw new McpConfigurationError(McpTestingMessages.principalRequired(where));
    }
    return new McpTestConnection(where, dispatcher, checked.principal, checked.protocolVersion, deliver);
  }

  /**
   * Sends one client message through the dispatcher. Resolves to its answer, or undefined for notifications,
   * responses to server requests, and requests cancelled by {@link close}.
   */
  async dispatch(message: JsonRpcMessage): Promise<JsonRpcResponse | undefined> {
    if (this.closed) throw new Error(McpTestingMessages.closed(this.where));
    const wire = overTheWire(message);
    const id = 'method' in wire && 'id' in wire ? wire.id : undefined;
    if (id !== undefined) this.inFlight.add(id);
    try {
      const answer = await this.dispatcher.dispatch(wire, this.context());
      if (answer && 'result' in answer && 'method' in wire && wire.method === 'initialize') {
        // As stdio does: the connection speaks the negotiated revision and remembers the client's capabilities.
        this.protocolVersion = negotiateProtocolVersion(String(answer.result.protocolVersion));
        const capabilities = wire.params?.capabilities;
        this.clientCapabilities =
          typeof capabilities === 'object' && capabilities !== null ? (capabilities as Record<string, unknown>) : {};
      }
      return this.closed || !answer ? undefined : overTheWire(answer);
    } finally {
      if (id !== undefined) this.inFlight.delete(id);
    }
  }

  /** Follows the SDK client's `setProtocolVersion` (a revision we do not negotiate is ignored). */
  useProtocolVersion(version: string): void {
    if (isSupportedProtocolVersion(version)) this.protocolVersion = version;
  }

  /** Cancels what is in flight (its handlers' signals abort) and refuses further messages. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const id of this.inFlight) this.dispatcher.cancel(this.scope, id, 'the test connection was closed');
    this.inFlight.clear();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  private context(): McpRequestContext {
    return {
      transport: 'memory',
      protocolVersion: this.protocolVersion,
      principal: this.principal,
      clientCapabilities: this.clientCapabilities,
      logLevel: this.logLevel,
      setLogLevel: async (level) => {
        this.logLevel = level;
      },
      cancellationScope: this.scope,
      send: (message) => {
        if (!this.closed) this.deliver(overTheWire(message));
      },
    };
  }
}

/** The options after their checks: a whole principal and a revision. */
function checkTestClientOptions(
  where: string,
  options: McpTestClientOptions | undefined,
): { principal?: McpPrincipal; protocolVersion: McpProtocolVersion } {
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
  return { principal: options.principal === undefined ? undefined : checkPrincipal(where, options.principal), protocolVersion: version };
}

function checkPrincipal(where: string, principal: McpTestPrincipal): McpPrincipal {
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

/** The app's instance of `type` anywhere in its module tree, or undefined when it has none. */
function resolveIn<T>(app: McpTestApp, type: new (...args: never[]) => T): T | undefined {
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
