import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './redis-server.harness.js';

const NGINX = process.env.NGINX ?? (process.platform === 'linux' ? '/usr/sbin/nginx' : 'nginx');
const READY_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 5_000;
/** Answered by nginx, never proxied. */
const READY_PATH = '/.nginx-ready';

/** Marks the answers nginx itself gives when a backend is unreachable or died mid-request (not the app's 503s). */
export const LOAD_BALANCER_REFUSAL_HEADER = 'x-load-balancer';

/** Servers still running, killed when the test process exits even if a test forgot to stop one. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** An nginx started for one test file, with its own config, logs and temp files in a directory of its own. */
export interface NginxHandle {
  /** `http://127.0.0.1:<port>` */
  readonly baseUrl: string;
  readonly port: number;
  /** The master process. */
  readonly pid: number;
  /** The directory holding nginx.conf, the logs and temp paths (removed by stop()). */
  readonly dir: string;
  /** The access log so far: one line per request, `<status> <upstream_status> <method> <uri>`. */
  accessLog(): string[];
  /** The error log so far. */
  errorLog(): string;
  /** Stops the master by PID (SIGQUIT, SIGKILL after a while), waits until it exited and removes its directory. */
  stop(): Promise<void>;
}

export interface NginxOptions {
  /** The backends, `host:port`; requests go round robin, without stickiness. */
  upstreams: string[];
  /** How long a backend that refused connections is left out (nginx `fail_timeout`); default 2 s. */
  failTimeoutSec?: number;
}

/**
 * Starts `nginx` (Debian's package: `apt-get install nginx`) on a free loopback port as a round-robin load balancer in
 * front of `upstreams`: no stickiness, HTTP/1.1 to the backends, no buffering (SSE streams flow as they are
 * written), hour-long read timeouts (idle SSE streams stay open). The config is checked with `nginx -t` first.
 *
 * A backend that refuses the connection (killed) is skipped: nginx passes the request to the next one, POST
 * included, since nothing was sent. A request a backend received and then died on cannot be replayed (it may
 * have had effects): nginx answers it `503` with `Retry-After: 1` and a JSON-RPC error body, marked with
 * {@link LOAD_BALANCER_REFUSAL_HEADER}, instead of its default `502`, as a load balancer in front of MCP servers
 * should (clients retry a 503).
 */
export async function startNginx(options: NginxOptions): Promise<NginxHandle> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return await startOn(port, options);
    } catch (error) {
      if (attempt >= 5 || !/Address already in use/i.test(String(error))) throw error;
    }
  }
}

async function startOn(port: number, options: NginxOptions): Promise<NginxHandle> {
  const dir = mkdtempSync(join(tmpdir(), 'nest-mcp-nginx-'));
  // Workers run as another user when the master is root: they must reach the temp paths.
  chmodSync(dir, 0o755);
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, nginxConfig(dir, port, options));
  try {
    await promisify(execFile)(NGINX, ['-t', '-q', ...nginxArgs(dir, conf)]);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const { code, stderr } = error as { code?: string; stderr?: string };
    if (code === 'ENOENT')
      throw new Error(`cannot start ${NGINX} (not installed); install it, e.g. apt-get install nginx`, { cause: error });
    throw new Error(`nginx -t refused the generated config:\n${stderr ?? String(error)}`, { cause: error });
  }

  const child = spawn(NGINX, nginxArgs(dir, conf), { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  running.add(child);
  void exited.then(() => running.delete(child));
  const errorLog = () => readIfExists(join(dir, 'error.log'));

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGQUIT'); // graceful: the master ends its workers and exits
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    await waitUntilListening(port, child, () => `${output}${errorLog()}`);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid!,
    dir,
    accessLog: () => readIfExists(join(dir, 'access.log')).split('\n').filter(Boolean),
    errorLog,
    stop,
  };
}

/** Prefix, config and the start-up error log (before the config is read) all in `dir`. */
function nginxArgs(dir: string, conf: string): string[] {
  return ['-p', dir, '-c', conf, '-e', join(dir, 'error.log')];
}

function nginxConfig(dir: string, port: number, options: NginxOptions): string {
  const failTimeout = options.failTimeoutSec ?? 2;
  const servers = options.upstreams.map((upstream) => `    server ${upstream} max_fails=1 fail_timeout=${failTimeout}s;`).join('\n');
  const refusal = JSON.stringify({
    jsonrpc: '2.0',
    id: null,
    error: { code: -32000, message: 'The upstream server is unavailable; retry.' },
  });
  return `# generated by test/kit/nginx.ts
daemon off;
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  log_format chaos '$status $upstream_status $request_method $uri';
  access_log ${dir}/access.log chaos;
  upstream mcp_backends {
${servers}
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 10m;
    # Answered by nginx itself: probing it must not mark backends that are still starting as failed.
    location = ${READY_PATH} { access_log off; return 204; }
    location / {
      proxy_pass http://mcp_backends;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_cache off;
      proxy_connect_timeout 2s;
      proxy_read_timeout 1h;
      proxy_send_timeout 1h;
      proxy_next_upstream error timeout;
      error_page 502 504 = @unavailable;
    }
    location @unavailable {
      default_type application/json;
      add_header Retry-After 1 always;
      add_header ${LOAD_BALANCER_REFUSAL_HEADER} upstream-failed always;
      return 503 '${refusal}';
    }
  }
}
`;
}

async function waitUntilListening(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`nginx on port ${port} exited at start:\n${output()}`);
    const answered = await fetch(`http://127.0.0.1:${port}${READY_PATH}`, { signal: AbortSignal.timeout(1_000) }).then(
      (response) => response.status === 204,
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nginx on port ${port} did not listen within ${READY_TIMEOUT_MS} ms:\n${output()}`);
}

function readIfExists(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
