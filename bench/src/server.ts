import 'reflect-metadata';
import { HOST, arg, serveRunner } from './ipc.js';

/**
 * One benchmarked server per process: `node --expose-gc dist/server.js --stack NAME [--large-limits]`
 * (`rekog` and `rekog-fastify` live in rekog/, with their own Nest).
 * Listens on an ephemeral loopback port and tells the runner which one over IPC.
 */
async function main(): Promise<void> {
  const stack = arg('stack');
  const largeLimits = process.argv.includes('--large-limits');
  switch (stack) {
    case 'ours-stateless':
    case 'ours-session':
    case 'ours-dto8':
    case 'ours-zod8':
    case 'ours-fastify':
    case 'ours-dto8-fastify':
    case 'ours-2026':
    case 'ours-2026-fastify': {
      const { start } = await import('./servers/ours.js');
      const variant = stack.startsWith('ours-dto8') ? 'dto8' : stack === 'ours-zod8' ? 'zod8' : 'echo';
      const app = await start(variant, largeLimits, adapterOf(stack));
      await app.listen(0, HOST);
      return serveRunner(portOf(app.getHttpServer()), app);
    }
    case 'bare-nest':
    case 'bare-nest-fastify': {
      const { start } = await import('./servers/bare-nest.js');
      const app = await start(adapterOf(stack));
      await app.listen(0, HOST);
      return serveRunner(portOf(app.getHttpServer()), app);
    }
    case 'ours-route':
    case 'bare-nest-rest': {
      const { start } = await import('./servers/route.js');
      const app = await start(stack);
      await app.listen(0, HOST);
      return serveRunner(portOf(app.getHttpServer()), app);
    }
    case 'ours-gateway': {
      const { start } = await import('./servers/gateway.js');
      const { app, upstream } = await start(HOST);
      await app.listen(0, HOST);
      return serveRunner(portOf(app.getHttpServer()), {
        close: async () => {
          await app.close();
          await upstream.close();
        },
        upstreamCpu: () => upstream.cpu(),
      });
    }
    case 'catalog': {
      const { start } = await import('./catalog.js');
      const { app, info } = await start(Number(arg('tools')), process.argv.includes('--search'));
      await app.listen(0, HOST);
      return serveRunner(portOf(app.getHttpServer()), app, info);
    }
    case 'sdk-v2':
    case 'sdk-v2-2026': {
      const { start } = await import('./servers/sdk-v2.js');
      const server = await start();
      return serveRunner(await server.listen(0), server);
    }
    case 'bare-http': {
      const { start } = await import('./servers/bare-http.js');
      const server = await start();
      return serveRunner(await server.listen(0), server);
    }
    case 'sdk': {
      const { start } = await import('./servers/sdk.js');
      const server = await start();
      return serveRunner(await server.listen(0), server);
    }
    default:
      throw new Error(`unknown stack ${stack}`);
  }
}

/** Stacks named `…-fastify` run on `@nestjs/platform-fastify`, the others on Nest's default, platform-express. */
function adapterOf(stack: string): 'express' | 'fastify' {
  return stack.endsWith('-fastify') ? 'fastify' : 'express';
}

function portOf(server: { address(): unknown }): number {
  return (server.address() as { port: number }).port;
}

main().catch((error: unknown) => {
  process.stderr.write(`server failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
