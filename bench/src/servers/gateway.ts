import 'reflect-metadata';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { INestApplication } from '@nestjs/common';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpModule } from '@nest-mcp/core';

/** The bench's server entry point (this file is dist/servers/gateway.js). */
const SERVER = fileURLToPath(new URL('../server.js', import.meta.url));

/** `ours-stateless` in a process of its own (as the weather server would run), resolving with it and its port. */
function startUpstream(): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = fork(SERVER, ['--stack', 'ours-stateless'], { execArgv: ['--expose-gc'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    child.once('message', (message: { type: string; port: number }) => resolve({ child, port: message.port }));
    child.once('exit', (code) => reject(new Error(`the upstream exited (${code})`)));
  });
}

/**
 * `ours-gateway`: a gateway app, `McpModule.forRoot({ upstreams: [{ name: 'up', url }] })`, in front of the
 * `ours-stateless` app running in a child process of its own; the runner calls `up_echo` on the gateway. Against
 * `ours-stateless` called directly, the row prices the extra hop (the gateway's pipeline, its client, loopback HTTP).
 * RSS and CPU are the gateway process's; the upstream's CPU over the same calls is read too (`cpu`).
 */
export async function start(
  host: string,
): Promise<{ app: INestApplication; upstream: { close(): void; cpu(): Promise<NodeJS.CpuUsage> } }> {
  const { child, port } = await startUpstream();
  /** The upstream's `process.cpuUsage()`, asked over its IPC channel (the runner's `cpu` message). */
  const cpu = () =>
    new Promise<NodeJS.CpuUsage>((resolve) => {
      child.on('message', function onCpu(message: { type: string } & NodeJS.CpuUsage) {
        if (message.type !== 'cpu') return;
        child.off('message', onCpu);
        resolve({ user: message.user, system: message.system });
      });
      child.send({ type: 'cpu' });
    });

  @Module({
    imports: [
      McpModule.forRoot({
        name: 'bench-gateway',
        version: '1.0.0',
        sources: { upstreams: [{ name: 'up', url: `http://${host}:${port}/mcp` }] },
      }),
    ],
  })
  class GatewayModule {}

  const app = await NestFactory.create(GatewayModule, { bodyParser: false, logger: false });
  return { app, upstream: { close: () => child.kill('SIGTERM'), cpu } };
}
