import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { AppModule } from '../../apps/weather-server/src/app.module.js';

/** A running weather-server on a real socket (random port on 127.0.0.1). */
export interface WeatherApp {
  readonly app: INestApplication;
  /** The MCP endpoint, e.g. `http://127.0.0.1:54321/mcp`. */
  readonly url: string;
  /** Closes the Nest app and its HTTP server. Safe to call twice. */
  close(): Promise<void>;
}

export interface WeatherAppOptions {
  /**
   * `false` (the default) boots the app as `main.ts` does, without Nest's JSON body parser, so the MCP endpoint
   * reads the bodies itself; `true` keeps Nest's default body parser.
   */
  bodyParser?: boolean;
}

/** Boots the real AppModule, as production does, and listens on an ephemeral port. */
export async function startWeatherApp(options: WeatherAppOptions = {}): Promise<WeatherApp> {
  // The sample reads its MCP options (credentials, origins, public URL) from the environment: boot it with none
  // of them, so a developer's shell cannot change what the tests see.
  const saved = scrubMcpEnv();
  let app: INestApplication;
  try {
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
    // forceCloseConnections: an SSE stream a test left open must not keep close() waiting.
    app = options.bodyParser
      ? moduleRef.createNestApplication({ logger: false, forceCloseConnections: true })
      : moduleRef.createNestApplication({ bodyParser: false, logger: false, forceCloseConnections: true });
    await app.listen(0, '127.0.0.1');
  } finally {
    Object.assign(process.env, saved);
  }
  const { port } = (app.getHttpServer() as { address(): AddressInfo }).address();
  let closed = false;
  return {
    app,
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
    },
  };
}

/** Removes every `MCP_*` variable from `process.env` and returns them for restoring. */
function scrubMcpEnv(): Record<string, string> {
  const saved: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('MCP_') && value !== undefined) {
      saved[key] = value;
      delete process.env[key];
    }
  }
  return saved;
}
