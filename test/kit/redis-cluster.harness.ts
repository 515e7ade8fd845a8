import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRedisServer, type RedisServerHandle } from './redis-server.harness.js';

/** A Redis Cluster of masters started for one test file. */
export interface RedisClusterHandle {
  /** Every master, as `redis.cluster.nodes` takes them. */
  nodes: Array<{ host: string; port: number }>;
  /** `host:port,host:port,...`, as `REDIS_CLUSTER_NODES` takes them. */
  nodeList: string;
  servers: RedisServerHandle[];
  /** Stops every node by PID and removes the cluster's config directory; safe to call twice. */
  stop(): Promise<void>;
}

const REDIS_CLI = process.env.REDIS_CLI ?? 'redis-cli';
const READY_TIMEOUT_MS = 20_000;
// A node also listens on port + 10000 (the cluster bus), so ports stay below 55536 and both must be free.
const LOWEST_PORT = 20_000;
const PORT_SPAN = 25_000;
const BUS_PORT_OFFSET = 10_000;

/**
 * Starts `masters` `redis-server --cluster-enabled yes` nodes on loopback ports, joins them with
 * `redis-cli --cluster create ... --cluster-replicas 0`, and resolves once every node reports
 * `cluster_state:ok` (all 16384 slots served).
 */
export async function startRedisCluster(options: { masters?: number } = {}): Promise<RedisClusterHandle> {
  const masters = options.masters ?? 3;
  const dir = await mkdtemp(join(tmpdir(), 'mcp-redis-cluster-'));
  const servers: RedisServerHandle[] = [];
  const stop = async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (let index = 0; index < masters; index++) servers.push(await startClusterNode(dir));
    const addresses = servers.map((server) => `127.0.0.1:${server.port}`);
    await run(REDIS_CLI, ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes']);
    await Promise.all(servers.map((server) => waitForClusterOk(server.port)));
  } catch (error) {
    await stop();
    throw error;
  }
  const nodes = servers.map((server) => ({ host: '127.0.0.1', port: server.port }));
  return { nodes, nodeList: nodes.map(({ host, port }) => `${host}:${port}`).join(','), servers, stop };
}

async function startClusterNode(dir: string): Promise<RedisServerHandle> {
  for (let attempt = 1; ; attempt++) {
    const port = await freeClusterPort();
    try {
      return await startRedisServer({
        port,
        args: [
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          join(dir, `nodes-${port}.conf`),
          '--dir',
          dir,
          '--cluster-node-timeout',
          '5000',
        ],
      });
    } catch (error) {
      // Taken between probing and binding: another port.
      if (attempt >= 5 || !/Address already in use/i.test(String(error))) throw error;
    }
  }
}

/** A port below 55536 that is free, and whose cluster bus port (+10000) is free too. */
async function freeClusterPort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = LOWEST_PORT + Math.floor(Math.random() * PORT_SPAN);
    if ((await isFree(port)) && (await isFree(port + BUS_PORT_OFFSET))) return port;
  }
  throw new Error('no free port pair for a Redis Cluster node');
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(command, args, { timeout: READY_TIMEOUT_MS }, (error, stdout, stderr) =>
      error ? reject(new Error(`${command} ${args.join(' ')} failed: ${error.message}\n${stdout}\n${stderr}`)) : resolve(stdout),
    ),
  );
}

async function waitForClusterOk(port: number): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = '';
  while (Date.now() < deadline) {
    last = await clusterInfo(port);
    if (last.includes('cluster_state:ok')) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the Redis Cluster node on port ${port} did not reach cluster_state:ok within ${READY_TIMEOUT_MS} ms:\n${last}`);
}

/** One raw RESP `CLUSTER INFO` (the harness needs no client library). */
function clusterInfo(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    let reply = '';
    const done = () => {
      socket.destroy();
      resolve(reply);
    };
    socket.setTimeout(1_000, done);
    socket.once('error', done);
    socket.once('connect', () => socket.write('CLUSTER INFO\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('cluster_state:') && reply.endsWith('\r\n')) done();
    });
  });
}
