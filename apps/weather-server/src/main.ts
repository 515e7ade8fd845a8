import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { McpStderrLogger, serveMcpOverStdio } from '@nest-mcp/core';
import { AppModule } from './app.module.js';

/** `--stdio`: serve one client over stdin/stdout (Claude Desktop style); otherwise HTTP on HOST:PORT. */
async function bootstrap(): Promise<void> {
  if (process.argv.includes('--stdio')) {
    const app = await NestFactory.createApplicationContext(AppModule, { logger: new McpStderrLogger() });
    // stdio has no headers: the token or API key comes from the environment.
    await serveMcpOverStdio(app, { credentials: process.env.MCP_TOKEN || undefined });
    return;
  }
  // MCP-only app: the MCP endpoint reads its own bodies (its size limit, JSON-RPC parse errors).
  const app = await NestFactory.create(AppModule, { bodyParser: false });
  app.enableShutdownHooks();
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? '127.0.0.1';
  await app.listen(port, host);
  process.stderr.write(`weather-server: MCP endpoint on http://${host}:${port}/mcp\n`);
}

void bootstrap();
