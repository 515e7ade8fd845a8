import { McpClient } from '../client/mcp-client.js';
import type { McpClientCommonOptions } from '../client/mcp-client-options.interface.js';
import { injectClientTransport } from '../client/transports/injected-transport.js';
import { McpAuthService } from '../auth/mcp-auth.service.js';
import { McpConfigurationError } from '../core/errors/mcp-configuration.error.js';
import { McpStdioTransport } from '../transports/stdio/stdio.transport.js';
import { McpInMemoryClientTransport } from './mcp-in-memory.client-transport.js';
import { checkHeaders, checkPrincipal, resolveIn, type McpTestApp, type McpTestPrincipal } from './mcp-test.connection.js';
import { McpTestingMessages } from './mcp-testing.messages.js';

/** Options of {@link createMcpTestClient}: the client's own (era, capabilities, `onRequest`, timeouts) and who calls. @publicApi */
export interface McpInMemoryClientOptions extends McpClientCommonOptions {
  /** Who calls. Required when the app configures authentication. */
  principal?: McpTestPrincipal;
  /** Request headers every call presents to guards on tools and routes (not authenticated: `principal` is who calls). */
  headers?: Readonly<Record<string, string>>;
}

const WHERE = 'createMcpTestClient';

/**
 * A real {@link McpClient} wired to an MCP app in the same process, with no socket and no child: provide it in
 * place of `McpClientModule`'s client to test a service that injects `McpClient`. It negotiates like a client of a
 * stdio server (2026-07-28 by default, `protocol: 'legacy'` for `initialize`), and serves every call through the
 * app's real pipeline. The app (an `INestApplication` or a compiled `TestingModule`) is initialised on the first
 * call; close the client, then the app. Fails at once with `McpConfigurationError` for an app without
 * `McpModule`, a bad principal, or a missing principal where the app authenticates its callers. It does not
 * reconnect unless `reconnect` is given.
 * @publicApi
 * @example
 * ```ts
 * const server = await Test.createTestingModule({ imports: [McpModule.forRoot({ name: 'weather', version: '1.0.0' })], providers: [WeatherTools] }).compile();
 * const moduleRef = await Test.createTestingModule({
 *   providers: [ForecastService, { provide: McpClient, useValue: createMcpTestClient(server) }],
 * }).compile();
 * expect(await moduleRef.get(ForecastService).forecast('Paris')).toMatchObject({ city: 'Paris' });
 * await moduleRef.get(McpClient).close();
 * await server.close();
 * ```
 */
export function createMcpTestClient(app: McpTestApp, options: McpInMemoryClientOptions = {}): McpClient {
  if (typeof app !== 'object' || app === null || typeof app.get !== 'function') {
    throw new McpConfigurationError(McpTestingMessages.notAnApp(WHERE));
  }
  const stdio = resolveIn(app, McpStdioTransport);
  if (!stdio) throw new McpConfigurationError(McpTestingMessages.noMcpModule(WHERE));
  const { principal, headers, ...clientOptions } = options;
  const checked = principal === undefined ? undefined : checkPrincipal(WHERE, principal);
  const presented = headers === undefined ? undefined : checkHeaders(WHERE, headers);
  if (resolveIn(app, McpAuthService)?.enabled && !checked) throw new McpConfigurationError(McpTestingMessages.principalRequired(WHERE));
  const client = new McpClient({ reconnect: false, ...clientOptions, command: 'in-memory' });
  injectClientTransport(client, () => new McpInMemoryClientTransport(app, stdio, checked, presented));
  return client;
}
