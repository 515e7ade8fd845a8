import 'reflect-metadata';
import { HOST, arg, serveRunner } from './ipc.js';

/**
 * One benchmarked server per process: `node --expose-gc dist/server.js --stack NAME [--large-limits]`
 * (`rekog` lives in rekog/, with its own Nest).
 * Listens on an ephemeral loopback port and tells the runner which one over IPC.
 */
async function main(): Promise<void> {
  const stack = arg('stack');
  const largeLimits = process.argv.includes('--large-limits');
  switch (stack) {
    case 'ours-stateless':
    case 'ours-session':
    case 'ours-dto8': {
      const { start } = await import('./servers/ours.js');
      const app = await start(stack === 'ours-dto8' ? 'dto8' : 'echo', largeLimits);
      await app.listen(0, HOST);
      return serveRunner(portOf(app.getHttpServer()), app);
    }
    case 'bare-nest': {
      const { start } = await import('./servers/bare-nest.js');
      const app = await start();
      await app.listen(0, HOST);
      return serveRunner(portOf(app.getHttpServer()), app);
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

function portOf(server: { address(): unknown }): number {
  return (server.address() as { port: number }).port;
}

main().catch((error: unknown) => {
  process.stderr.write(`server failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
