import type { INestApplicationContext } from '@nestjs/common';
import { McpAuthService } from '../../auth/mcp-auth.service.js';
import { McpStdioTransport, type McpStdioOptions } from './stdio.transport.js';

/**
 * Serves the application's MCP server over stdio until stdin ends or SIGTERM/SIGINT arrives, then lets
 * in-flight calls finish and closes the application. While it runs, anything written to `process.stdout` by
 * other code (loggers, console.log) is moved to stderr: stdout carries nothing but protocol messages.
 * @publicApi
 * @example
 * const app = await NestFactory.createApplicationContext(AppModule, { logger: new McpStderrLogger() });
 * await serveMcpOverStdio(app);
 */
export async function serveMcpOverStdio(app: INestApplicationContext, options: McpStdioOptions = {}): Promise<void> {
  // Credentials are checked before the first message: a misconfigured launch fails at once, on stderr.
  const principal = options.principal ?? (await app.get(McpAuthService, { strict: false }).authenticate({ bearer: options.credentials, headers: {} }));
  const stdout = process.stdout;
  const protocolWrite = stdout.write.bind(stdout);
  const redirect = !options.write;
  if (redirect) stdout.write = ((chunk: unknown, ...rest: unknown[]) => (process.stderr.write as (...a: unknown[]) => boolean)(chunk, ...rest)) as typeof stdout.write;

  const input = options.input ?? process.stdin;
  // SIGTERM/SIGINT end the input as EOF would: no new messages, in-flight calls still answer.
  const stop = () => input.destroy();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  try {
    await app.get(McpStdioTransport, { strict: false }).serve({ ...options, principal, input, write: options.write ?? ((line) => void protocolWrite(line)) });
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
    await app.close();
    if (redirect) stdout.write = protocolWrite;
  }
}
