import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module.js';
import { gatewayConfigFromEnv, type GatewayConfig } from './config/gateway-config.from-env.js';
import { GatewayEnvError } from './config/gateway-env.error.js';

/** Reads the environment (a malformed value: one stderr line, exit 1), then serves MCP on HOST:PORT. */
async function bootstrap(): Promise<void> {
  let config: GatewayConfig;
  try {
    config = gatewayConfigFromEnv(process.env);
  } catch (error) {
    if (!(error instanceof GatewayEnvError)) throw error;
    process.stderr.write(`mcp-gateway: ${error.message}\n`);
    process.exitCode = 1;
    return;
  }
  // MCP-only app: the MCP endpoint reads its own bodies (its size limit, JSON-RPC parse errors).
  const app =
    config.adapter === 'fastify'
      ? await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), new FastifyAdapter(), { bodyParser: false })
      : await NestFactory.create(AppModule.forRoot(config), { bodyParser: false });
  // SIGTERM/SIGINT: drain, close every upstream session and stdio child, then exit 0.
  app.enableShutdownHooks([], { useProcessExit: true });
  await app.listen(config.port, config.host);
  const { port } = app.getHttpServer().address() as AddressInfo;
  const base = `http://${config.host}:${port}`;
  process.stderr.write(`mcp-gateway: MCP endpoint on ${base}/mcp (${config.adapter})\n`);
  for (const upstream of config.upstreams.mcp) {
    process.stderr.write(`mcp-gateway: upstream ${upstream.name} (${upstream.url ?? upstream.command}) as ${upstream.name}_*\n`);
  }
  for (const upstream of config.upstreams.openapi) {
    process.stderr.write(`mcp-gateway: OpenAPI upstream ${upstream.name} (${upstream.openapi}) as ${upstream.name}_*\n`);
  }
  if (config.explorer.enabled) process.stderr.write(`mcp-gateway: explorer on ${base}${config.explorer.path}\n`);
}

void bootstrap();
