import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpAuthError, McpStderrLogger, serveMcpOverStdio } from '@nest-mcp/core';
import { AppModule } from './app.module.js';
import { explorerFromEnv } from './config/explorer.from-env.js';

/** `--stdio`: serve one client over stdin/stdout (Claude Desktop style); otherwise HTTP on HOST:PORT. */
async function bootstrap(): Promise<void> {
  if (process.argv.includes('--stdio')) return serveStdio();
  // MCP-only app: the MCP endpoint reads its own bodies (its size limit, JSON-RPC parse errors).
  const app = await NestFactory.create(AppModule, { bodyParser: false });
  app.enableShutdownHooks();
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? '127.0.0.1';
  await app.listen(port, host);
  process.stderr.write(`weather-server: MCP endpoint on http://${host}:${port}/mcp\n`);
  const explorer = explorerFromEnv(process.env);
  if (explorer.enabled) process.stderr.write(`weather-server: explorer on http://${host}:${port}${explorer.path}\n`);
}

/**
 * stdio has no headers: the token or API key comes from `MCP_TOKEN`. A missing or refused one fails fast, before
 * the first message, with one line on stderr and exit code 1: the client's launcher shows that line as the reason
 * (a JSON-RPC error would only reach a client that got past its own handshake; most just report "Connection
 * closed"). Boot logs are held back until the credentials are accepted, so that line is all stderr says.
 */
async function serveStdio(): Promise<void> {
  try {
    // abortOnError: false, so a boot error reaches the catch below and the held-back logs explaining it are printed.
    const app = await NestFactory.createApplicationContext(AppModule, {
      logger: new McpStderrLogger(),
      bufferLogs: true,
      abortOnError: false,
    });
    await serveMcpOverStdio(app, { credentials: process.env.MCP_TOKEN || undefined, credentialsName: 'MCP_TOKEN' });
  } catch (error) {
    if (!(error instanceof McpAuthError)) {
      Logger.flush();
      throw error;
    }
    process.stderr.write(`weather-server: ${error.message}\n`);
    process.exitCode = 1;
  }
}

void bootstrap();
