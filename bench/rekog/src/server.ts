import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Payload } from '@nestjs/microservices';
import { McpController, McpStrategy, StreamableHttpTransport, Tool } from '@rekog/mcp-nest';
import { z } from 'zod';

const HOST = '127.0.0.1';

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
 * `--stack rekog-fastify` mounts it on @nestjs/platform-fastify, which @rekog/mcp-nest supports (its
 * FastifyHttpAdapter). There is no copy of platform-fastify in bench/rekog: Node resolves it from the repo root, and
 * that adapter extends the root's @nestjs/core (same version); Nest only duck-types the adapter it is given.
 */
async function createApp(stack: string) {
  const options = { logger: false, abortOnError: false } as const;
  if (stack !== 'rekog-fastify') return NestFactory.create(AppModule, options);
  const { FastifyAdapter } = await import('@nestjs/platform-fastify');
  // The adapter's types come from the root's @nestjs/core, a different declaration of the same class.
  return NestFactory.create(AppModule, new FastifyAdapter() as unknown as Parameters<typeof NestFactory.create>[1] & object, options);
}

/**
 * @rekog/mcp-nest 2.x in its fastest mode: stateless Streamable HTTP (a server per request, its default) with JSON
 * responses, self-mounted on Nest's express adapter (Nest's default body parser) or Fastify's, MCP logging off.
 * Same runner protocol as ../src/ipc.ts: `ready` with the port, then `rss`, `cpu` and `exit` requests.
 */
async function main(): Promise<void> {
  const index = process.argv.indexOf('--stack');
  const stack = index >= 0 ? (process.argv[index + 1] ?? 'rekog') : 'rekog';
  const mcp = new McpStrategy({
    name: 'bench-rekog',
    version: '1.0.0',
    logging: false,
    transports: [new StreamableHttpTransport({ statefulMode: false, enableJsonResponse: true })],
  });
  const app = await createApp(stack);
  mcp.setHttpAdapter(app.getHttpAdapter());
  app.connectMicroservice({ strategy: mcp });
  await app.startAllMicroservices();
  await app.listen(0, HOST);
  const port = (app.getHttpServer().address() as { port: number }).port;

  process.on('message', (message: { type: string; gc?: boolean }) => {
    if (message.type === 'rss') {
      const gc = (globalThis as { gc?: () => void }).gc;
      if (message.gc && gc) {
        gc();
        gc();
      }
      const usage = process.memoryUsage();
      process.send?.({ type: 'rss', rss: usage.rss, heapUsed: usage.heapUsed, heapTotal: usage.heapTotal, external: usage.external, arrayBuffers: usage.arrayBuffers });
    } else if (message.type === 'cpu') {
      process.send?.({ type: 'cpu', ...process.cpuUsage(), hrtimeUs: Number(process.hrtime.bigint() / 1000n) });
    } else if (message.type === 'exit') {
      const timer = setTimeout(() => process.exit(0), 2_000);
      void app.close().finally(() => {
        clearTimeout(timer);
        process.exit(0);
      });
    }
  });
  process.on('disconnect', () => process.exit(0));
  process.send?.({ type: 'ready', port });
}

main().catch((error: unknown) => {
  process.stderr.write(`server failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
