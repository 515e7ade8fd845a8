import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Payload } from '@nestjs/microservices';
import { McpController, McpStrategy, StreamableHttpTransport, Tool } from '@rekog/mcp-nest';
import { z } from 'zod';

@McpController()
class EchoController {
  @Tool({ name: 'echo', description: 'Returns the text it is given.', parameters: z.object({ text: z.string() }) })
  echo(@Payload() { text }: { text: string }) {
    return { content: [{ type: 'text', text }] };
  }
}

@Module({ controllers: [EchoController] })
class AppModule {}

/**
 * @rekog/mcp-nest 2.x in its fastest mode: stateless Streamable HTTP (a server per request, the default) with
 * JSON responses, self-mounted on Nest's express adapter (Nest's default body parser), MCP logging off.
 */
export async function start() {
  const mcp = new McpStrategy({
    name: 'bench-rekog',
    version: '1.0.0',
    logging: false,
    transports: [new StreamableHttpTransport({ statefulMode: false, enableJsonResponse: true })],
  });
  const app = await NestFactory.create(AppModule, { logger: false, abortOnError: false });
  mcp.setHttpAdapter(app.getHttpAdapter());
  app.connectMicroservice({ strategy: mcp });
  await app.startAllMicroservices();
  return app;
}
