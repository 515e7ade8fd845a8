import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { ValidationPipe, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { AppModule } from './app.module.js';
import { helpdeskSecret } from './config/helpdesk-secret.js';

const HTTP_ADAPTERS = ['express', 'fastify'] as const;

/** The helpdesk: REST under `/tickets`, its OpenAPI document at `/docs-json`, MCP at `/mcp`, on HOST:PORT. */
async function bootstrap(): Promise<void> {
  const adapter = process.env.HTTP_ADAPTER || 'express';
  const problem = !(HTTP_ADAPTERS as readonly string[]).includes(adapter)
    ? `HTTP_ADAPTER=${adapter} is not an HTTP adapter; use ${HTTP_ADAPTERS.join(' or ')}`
    : secretProblem();
  if (problem) {
    process.stderr.write(`helpdesk-api: ${problem}\n`);
    process.exitCode = 1;
    return;
  }
  const app: INestApplication =
    adapter === 'fastify' ? await NestFactory.create(AppModule, new FastifyAdapter()) : await NestFactory.create(AppModule);
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }));
  app.enableShutdownHooks([], { useProcessExit: true });
  // operationIds from the method names (`createTicket`), so the tools read `create_ticket`, not `tickets_controller_create_ticket`.
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder().setTitle('Helpdesk API').setVersion('1.0.0').addBearerAuth().build(),
    { operationIdFactory: (_controller, method) => method },
  );
  SwaggerModule.setup('docs', app, document, { ui: false, raw: ['json'] });
  const host = process.env.HOST || '127.0.0.1';
  await app.listen(Number(process.env.PORT || 3100), host);
  const { port } = app.getHttpServer().address() as AddressInfo;
  process.stderr.write(`helpdesk-api: REST on http://${host}:${port}/tickets, MCP endpoint on http://${host}:${port}/mcp (${adapter})\n`);
}

function secretProblem(): string | undefined {
  try {
    helpdeskSecret();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

void bootstrap();
