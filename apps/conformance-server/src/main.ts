import 'reflect-metadata';
import type { NestApplicationOptions } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { AppModule } from './app.module.js';

/** `HTTP_ADAPTER=express|fastify` (express by default): .ci/conformance runs every suite on each. */
function httpAdapterFromEnv(): 'express' | 'fastify' {
  const adapter = process.env.HTTP_ADAPTER || 'express';
  if (adapter !== 'express' && adapter !== 'fastify') throw new Error(`HTTP_ADAPTER=${adapter}: use express or fastify`);
  return adapter;
}

async function bootstrap(): Promise<void> {
  const adapter = httpAdapterFromEnv();
  const options: NestApplicationOptions = { bodyParser: false, logger: ['error', 'warn'] };
  const app =
    adapter === 'fastify'
      ? await NestFactory.create(AppModule, new FastifyAdapter(), options)
      : await NestFactory.create(AppModule, options);
  app.enableShutdownHooks();
  const port = Number(process.env.PORT ?? 3001);
  const host = process.env.HOST ?? '127.0.0.1';
  await app.listen(port, host);
  process.stderr.write(`conformance-server: MCP endpoint on http://${host}:${port}/mcp (${adapter})\n`);
}

void bootstrap();
