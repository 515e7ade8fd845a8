import type { INestApplicationContext } from '@nestjs/common';
import { McpAuthError } from '../../auth/mcp-auth.error.js';
import { McpAuthService } from '../../auth/mcp-auth.service.js';
import { clientText } from '../../core/client-text.js';
import { McpMessages } from '../../core/errors/mcp.messages.js';
import { McpStdioTransport, type McpStdioOptions } from './stdio.transport.js';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';

/**
 * Serves the application's MCP server over stdio until stdin ends or SIGTERM/SIGINT arrives, then lets
 * in-flight calls finish and closes the application. While it runs, anything written to `process.stdout` by
 * other code (loggers, console.log) is moved to stderr: stdout carries nothing but protocol messages.
 *
 * Credentials are checked first. Missing or refused ones close the application and reject with an
 * `McpAuthError` whose one-line message names `credentialsName`; an app created with `bufferLogs: true` has its
 * boot logs flushed only once they are accepted, so a refused launch can print just that line.
 * @publicApi
 * @example
 * const app = await NestFactory.createApplicationContext(AppModule, { logger: new McpStderrLogger(), bufferLogs: true });
 * await serveMcpOverStdio(app, { credentials: process.env.MCP_TOKEN, credentialsName: 'MCP_TOKEN' });
 */
export async function serveMcpOverStdio(app: INestApplicationContext, options: McpStdioOptions = {}): Promise<void> {
  const server = await stdioServer(app, options.server);
  const principal = options.principal ?? (await authenticateLaunch(server.auth, app, options));
  app.flushLogs();
  const stdout = process.stdout;
  const protocolWrite = stdout.write.bind(stdout);
  const redirect = !options.write;
  if (redirect)
    stdout.write = ((chunk: unknown, ...rest: unknown[]) =>
      (process.stderr.write as (...a: unknown[]) => boolean)(chunk, ...rest)) as typeof stdout.write;

  const input = options.input ?? process.stdin;
  // SIGTERM/SIGINT end the input as EOF would: no new messages, in-flight calls still answer.
  const stop = () => input.destroy();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  try {
    await server.transport.serve({ ...options, principal, input, write: options.write ?? ((line) => void protocolWrite(line)) });
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
    await app.close();
    if (redirect) stdout.write = protocolWrite;
  }
}

/** The stdio caller, from credentials given at launch; refused ones close the app and name where they were set. */
async function authenticateLaunch(auth: McpAuthService, app: INestApplicationContext, options: McpStdioOptions) {
  try {
    return await auth.authenticate({ bearer: options.credentials, headers: {} });
  } catch (error) {
    await app.close();
    if (!(error instanceof McpAuthError)) throw error;
    const name = options.credentialsName ?? 'options.credentials';
    // The message an authenticator wrote for HTTP clients may mention headers; the launch has none.
    const message = options.credentials
      ? McpMessages.stdioCredentialsRefused(name, clientText(error.message, 200))
      : McpMessages.stdioCredentialsMissing(name);
    throw new McpAuthError(error.code, message);
  }
}

/**
 * The server stdio serves: the app's only one, or the one `name` names. Nest lists a token's instances module by
 * module in one order, so the i-th transport, auth service and options belong to the same server.
 */
async function stdioServer(app: INestApplicationContext, name: string | undefined) {
  const transports = app.get(McpStdioTransport, { strict: false, each: true });
  const auths = app.get(McpAuthService, { strict: false, each: true });
  const names = app.get<McpResolvedOptions>(MCP_RESOLVED_OPTIONS, { strict: false, each: true }).map((options) => options.name);
  const index = name === undefined ? (transports.length === 1 ? 0 : -1) : names.indexOf(name);
  if (index >= 0) return { transport: transports[index], auth: auths[index] };
  await app.close();
  throw new McpConfigurationError(McpMessages.stdioServerUnknown(name, names));
}
