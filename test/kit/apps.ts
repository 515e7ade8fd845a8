import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import type { DynamicModule, INestApplication, LoggerService, Provider, Type } from '@nestjs/common';
import { McpModule, type McpModuleForRootOptions } from '@nest-mcp/core';
import { Test } from '@nestjs/testing';
import { AppModule } from '../../apps/weather-server/src/app.module.js';
import { freePort } from './redis-server.harness.js';
import { createTestApp, HTTP_ADAPTER_ENV, httpAdapterName, type HttpAdapterName } from './http-adapter.js';
import { GATEWAY_MAIN, HELPDESK_MAIN, WEATHER_MAIN } from './build.js';
import { StdioServerProcess } from './stdio.js';
import { createFixtureModule, type FixtureModuleOptions } from '../fixtures/streaming-tools.module.js';

export { httpAdapterName, type HttpAdapterName };

/** A Nest app listening on a random loopback port. */
export interface RunningApp {
  readonly app: INestApplication;
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly base: string;
  /** `http://127.0.0.1:<port>/mcp` */
  readonly url: string;
  /** Closes the Nest app and its HTTP server. Safe to call twice. */
  close(): Promise<void>;
}

export interface ListenOptions {
  /** Nest's logger (none by default). */
  logger?: LoggerService | false;
  /**
   * `false` (the default) boots the app as the sample's `main.ts` does, without Nest's JSON body parser, so the
   * MCP endpoint reads the bodies itself; `true` keeps Nest's default body parser.
   */
  bodyParser?: boolean;
  /** `true` (the default): an SSE stream a test left open must not keep close() waiting. */
  forceCloseConnections?: boolean;
  /** `app.setGlobalPrefix(globalPrefix)` before listening (none by default). */
  globalPrefix?: string;
  /** The loopback port (an ephemeral one by default): for a resource URL that must be known before the boot. */
  port?: number;
  /** The Nest HTTP adapter; by default the run's, {@link httpAdapterName} (`MCP_TEST_HTTP_ADAPTER`, express when unset). */
  adapter?: HttpAdapterName;
}

/** Compiles `imports` into a Nest app on the chosen adapter, not yet initialised. */
async function createApp(imports: (DynamicModule | Type)[], options: ListenOptions): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({ imports }).compile();
  const app = createTestApp(
    moduleRef,
    {
      ...(options.bodyParser ? {} : { bodyParser: false }),
      logger: options.logger ?? false,
      forceCloseConnections: options.forceCloseConnections ?? true,
    },
    options.adapter,
  );
  if (options.globalPrefix) app.setGlobalPrefix(options.globalPrefix);
  return app;
}

/** Compiles `imports` and listens on 127.0.0.1 with an ephemeral port: the one way the e2e specs boot an app. */
export async function listen(imports: (DynamicModule | Type)[], options: ListenOptions = {}): Promise<RunningApp> {
  const app = await createApp(imports, options);
  await app.listen(options.port ?? 0, '127.0.0.1');
  const { port } = (app.getHttpServer() as { address(): AddressInfo }).address();
  let closed = false;
  return {
    app,
    port,
    base: `http://127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
    },
  };
}

/**
 * Compiles `imports` and runs `app.init()` without listening (the boot-error specs), closing the app whatever
 * happens; rejects with the error the boot failed with.
 */
export async function initApp(imports: (DynamicModule | Type)[], options: ListenOptions = {}): Promise<void> {
  const app = await createApp(imports, options);
  try {
    await app.init();
  } finally {
    await app.close().catch(() => undefined);
  }
}

/** `McpModule.forRoot(options)` (extras such as `path` or `explorer` included) with `providers` beside it, listening like {@link listen}. */
export function listenMcp(
  options: McpModuleForRootOptions,
  providers: Provider[] = [],
  listenOptions: ListenOptions = {},
): Promise<RunningApp> {
  class McpTestModule {}
  return listen([{ module: McpTestModule, imports: [McpModule.forRoot(options)], providers }], listenOptions);
}

/** Sets `vars` in `process.env` (`undefined` deletes) while `run` runs, then puts back what was there. */
export async function withEnv<T>(vars: Record<string, string | undefined>, run: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((key) => [key, process.env[key]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
  apply(vars);
  try {
    return await run();
  } finally {
    apply(saved);
  }
}

/**
 * Runs `boot` with exactly `env` as the `MCP_*` environment (every other `MCP_*` variable hidden), then restores it.
 * `MCP_TEST_HTTP_ADAPTER` stays: it is the test run's, not the server's.
 */
export function withMcpEnv<T>(env: Record<string, string>, boot: () => Promise<T>): Promise<T> {
  const hidden = Object.fromEntries(
    Object.keys(process.env)
      .filter((key) => key.startsWith('MCP_') && key !== HTTP_ADAPTER_ENV)
      .map((key) => [key, undefined]),
  );
  return withEnv({ ...hidden, ...env }, boot);
}

export interface WeatherAppOptions extends ListenOptions {
  /** The environment the sample reads its options from (credentials, origins, REDIS_URL...); no `MCP_*` but these. */
  env?: Record<string, string>;
}

/** Boots the sample's real AppModule, as production does, with exactly `options.env` as its environment. */
export function startWeatherApp(options: WeatherAppOptions = {}): Promise<RunningApp> {
  return withMcpEnv(options.env ?? {}, () => listen([AppModule], options));
}

/** The fixture server of the transport suites (`test/fixtures/streaming-tools.module.ts`) on a real socket. */
export function startFixtureApp(options: FixtureModuleOptions = {}): Promise<RunningApp> {
  // Open SSE connections are not cut: the app itself ends them at shutdown, which the transport suites check.
  return listen([createFixtureModule(options)], { forceCloseConnections: false });
}

/** The built weather server (`node dist/apps/weather-server/main.js`) as a child process on a free port. */
export class SpawnedWeatherServer {
  private constructor(
    readonly process: StdioServerProcess,
    readonly port: number,
  ) {}

  /**
   * Spawns it with `env` (no `MCP_*`, REDIS_URL or REDIS_CLUSTER_NODES from the test's own environment) on the run's HTTP adapter
   * (`HTTP_ADAPTER`, unless `env` names one) and waits until it listens. `port`: listen there (to restart an
   * instance at the same address), a free port otherwise.
   */
  static async start(env: Record<string, string>, options: { port?: number } = {}): Promise<SpawnedWeatherServer> {
    const port = options.port ?? (await freePort());
    const adapter = env.HTTP_ADAPTER ?? httpAdapterName();
    const child = new StdioServerProcess(WEATHER_MAIN, [], {
      REDIS_URL: '',
      REDIS_CLUSTER_NODES: '',
      HTTP_ADAPTER: adapter,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
    });
    const server = new SpawnedWeatherServer(child, port);
    await child.waitForStderr(/MCP endpoint on/, 20_000);
    // The startup line names the adapter: a dist/ built before HTTP_ADAPTER existed would test express silently.
    if (!child.stderr.includes(`/mcp (${adapter})`)) {
      child.signal('SIGKILL');
      throw new Error(`the built weather server did not start on ${adapter} (npm run build):\n${child.stderr}`);
    }
    return server;
  }

  get pid(): number {
    return this.process.pid;
  }

  get stderr(): string {
    return this.process.stderr;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get url(): string {
    return `${this.baseUrl}/mcp`;
  }

  /** Signals the process (by its PID) and waits for it to exit; rejects when it has not within `timeoutMs`. */
  async stop(signal: NodeJS.Signals, timeoutMs = 15_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.process.signal(signal);
    const exit = await this.process.waitForExit(timeoutMs);
    if (exit.timedOut) throw new Error(`pid ${this.pid} did not exit within ${timeoutMs} ms after ${signal}:\n${this.stderr}`);
    return { code: exit.code, signal: exit.signal };
  }
}

/** A built sample app spawned on a free loopback port and the run's HTTP adapter (`HTTP_ADAPTER` unless `env` names one). */
class SpawnedSample {
  protected constructor(
    readonly process: StdioServerProcess,
    readonly port: number,
  ) {}

  /**
   * Spawns `main` with `env` on `port` (a free one by default) and waits until it says it listens on that adapter;
   * killed (by PID) when it does not.
   */
  protected static async spawn(
    main: string,
    env: Record<string, string>,
    timeoutMs: number,
    port?: number,
  ): Promise<[StdioServerProcess, number]> {
    port ??= await freePort();
    const adapter = env.HTTP_ADAPTER ?? httpAdapterName();
    const child = new StdioServerProcess(main, [], { HTTP_ADAPTER: adapter, ...env, PORT: String(port), HOST: '127.0.0.1' });
    try {
      await child.waitForStderr(new RegExp(`MCP endpoint on .*\\(${adapter}\\)`), timeoutMs);
    } catch (error) {
      child.kill();
      throw error;
    }
    return [child, port];
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get url(): string {
    return `${this.baseUrl}/mcp`;
  }

  /** SIGTERM (by its PID), and waits for the exit; killed when it has not exited within 15 s. */
  async stop(): Promise<void> {
    this.process.signal('SIGTERM');
    const exit = await this.process.waitForExit(15_000);
    if (exit.timedOut) this.process.kill();
  }
}

/** The built helpdesk sample (`node dist/apps/helpdesk-api/main.js`). */
export class SpawnedHelpdeskApi extends SpawnedSample {
  /** Spawns it with `env` (HELPDESK_JWT_SECRET…) and waits until it listens. */
  static async start(env: Record<string, string>): Promise<SpawnedHelpdeskApi> {
    return new SpawnedHelpdeskApi(...(await SpawnedSample.spawn(HELPDESK_MAIN, env, 20_000)));
  }
}

/** The built gateway sample (`node dist/apps/mcp-gateway/main.js`). */
export class SpawnedMcpGateway extends SpawnedSample {
  /**
   * Spawns it with `env` (GATEWAY_UPSTREAMS, MCP_JWT_SECRET…) and waits until it listens; on `port` when its public
   * URL must be known before it starts (a redirect URI registered at an authorization server).
   */
  static async start(env: Record<string, string>, options: { port?: number } = {}): Promise<SpawnedMcpGateway> {
    return new SpawnedMcpGateway(...(await SpawnedSample.spawn(GATEWAY_MAIN, env, 30_000, options.port)));
  }
}

/** A fixture main compiled by `ensureFixtureMainCompiled()`, spawned like the samples (it says `MCP endpoint on … (<adapter>)`). */
export class SpawnedFixtureApp extends SpawnedSample {
  /** Spawns the compiled `main` with `env` on a free loopback port and the run's HTTP adapter; waits until it listens. */
  static async start(main: string, env: Record<string, string> = {}): Promise<SpawnedFixtureApp> {
    return new SpawnedFixtureApp(...(await SpawnedSample.spawn(main, env, 30_000)));
  }
}
