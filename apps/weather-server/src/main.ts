import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { Logger, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { McpAuthError, McpStderrLogger, serveMcpOverStdio } from '@nest-mcp/core';
import { AppModule } from './app.module.js';
import { explorerFromEnv } from './config/explorer.from-env.js';
import { oauthEnvProblem, redisEnvProblem } from './config/mcp-options.from-env.js';
import { LOG_LEVEL_NAMES, logLevelsFromEnv } from './config/log-levels.from-env.js';

/** The Nest HTTP adapters the sample runs on (`HTTP_ADAPTER`). */
const HTTP_ADAPTERS = ['express', 'fastify'] as const;
type HttpAdapterName = (typeof HTTP_ADAPTERS)[number];

/**
 * `--stdio`: serve one client over stdin/stdout (Claude Desktop style); otherwise HTTP on HOST:PORT, on the adapter
 * `HTTP_ADAPTER` names (express by default), under `GLOBAL_PREFIX` (none by default); `LOG_LEVEL` (`log` by default)
 * sets how much Nest logs.
 */
async function bootstrap(): Promise<void> {
  const envProblem = redisEnvProblem(process.env) ?? oauthEnvProblem(process.env);
  if (envProblem) {
    process.stderr.write(`weather-server: ${envProblem}\n`);
    process.exitCode = 1;
    return;
  }
  const logLevels = logLevelsFromEnv(process.env.LOG_LEVEL);
  if (logLevels === undefined) {
    process.stderr.write(
      `weather-server: LOG_LEVEL=${process.env.LOG_LEVEL} is not a log level; use one of ${LOG_LEVEL_NAMES.join(', ')}\n`,
    );
    process.exitCode = 1;
    return;
  }
  if (process.argv.includes('--stdio')) return serveStdio(logLevels);
  const adapter = httpAdapterFromEnv(process.env.HTTP_ADAPTER);
  if (adapter === undefined) {
    process.stderr.write(
      `weather-server: HTTP_ADAPTER=${process.env.HTTP_ADAPTER} is not an HTTP adapter; use ${HTTP_ADAPTERS.join(' or ')}\n`,
    );
    process.exitCode = 1;
    return;
  }
  // MCP-only app: the MCP endpoint reads its own bodies (its size limit, JSON-RPC parse errors).
  const app =
    adapter === 'fastify'
      ? await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter(), { bodyParser: false, logger: logLevels })
      : await NestFactory.create(AppModule, { bodyParser: false, logger: logLevels });
  // SIGTERM/SIGINT: drain (streams end with a retry hint, calls and jobs get shutdown.graceMs), then exit 0.
  app.enableShutdownHooks([], { useProcessExit: true });
  const prefix = globalPrefixFromEnv(process.env.GLOBAL_PREFIX);
  if (prefix) app.setGlobalPrefix(prefix);
  const host = process.env.HOST ?? '127.0.0.1';
  await app.listen(Number(process.env.PORT ?? 3000), host);
  // The port the server really listens on: PORT=0 lets the system pick one.
  const { port } = app.getHttpServer().address() as AddressInfo;
  const base = `http://${host}:${port}${prefix ? `/${prefix}` : ''}`;
  process.stderr.write(`weather-server: MCP endpoint on ${base}/mcp (${adapter})\n`);
  process.stderr.write(`weather-server: admin MCP endpoint on ${base}/admin/mcp\n`);
  const explorer = explorerFromEnv(process.env);
  if (explorer.enabled) process.stderr.write(`weather-server: explorer on ${base}${explorer.path}\n`);
}

/** `HTTP_ADAPTER`: express (the default) or fastify; undefined for anything else. */
function httpAdapterFromEnv(value: string | undefined): HttpAdapterName | undefined {
  if (value === undefined || value === '') return 'express';
  return (HTTP_ADAPTERS as readonly string[]).includes(value) ? (value as HttpAdapterName) : undefined;
}

/** `GLOBAL_PREFIX` (`api`, `/api/`) as Nest takes it: without its slashes; empty for none. */
function globalPrefixFromEnv(value: string | undefined): string {
  return (value ?? '').trim().replace(/^\/+|\/+$/g, '');
}

/**
 * stdio has no headers: the token or API key comes from `MCP_TOKEN`. A missing or refused one fails fast, before
 * the first message, with one line on stderr and exit code 1: the client's launcher shows that line as the reason
 * (a JSON-RPC error would only reach a client that got past its own handshake; most just report "Connection
 * closed"). Boot logs are held back until the credentials are accepted, so that line is all stderr says.
 */
async function serveStdio(logLevels: LogLevel[]): Promise<void> {
  try {
    // abortOnError: false, so a boot error reaches the catch below and the held-back logs explaining it are printed.
    const app = await NestFactory.createApplicationContext(AppModule, {
      logger: new McpStderrLogger({ logLevels }),
      bufferLogs: true,
      abortOnError: false,
    });
    // The app has two servers (/mcp and /admin/mcp): stdio serves the weather one.
    await serveMcpOverStdio(app, {
      server: 'weather-server',
      credentials: process.env.MCP_TOKEN || undefined,
      credentialsName: 'MCP_TOKEN',
    });
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
