/**
 * The one boot helper of the library's specs (not built, not exported): `McpModule.forRoot()` plus the spec's
 * providers in a Nest app that is initialised but listens on nothing; requests go to the dispatcher directly.
 * The app is built on the run's HTTP adapter (./http-adapter.ts), so its routes register as they would on it.
 */
import 'reflect-metadata';
import type { DynamicModule, INestApplication, Provider, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { McpModule, type McpModuleOptions } from '../../libs/mcp/src/index.js';
import { McpDispatcher } from '../../libs/mcp/src/core/mcp.dispatcher.js';
import { McpListChanges } from '../../libs/mcp/src/core/list-changes.js';
import type { McpRequestContext } from '../../libs/mcp/src/core/mcp-request-context.interface.js';
import type { JsonRpcResponse } from '../../libs/mcp/src/core/json-rpc/json-rpc.types.js';
import { createTestApp } from './http-adapter.js';

/** The request context of a plain HTTP call of the latest session-based revision. */
export const HTTP_CONTEXT: McpRequestContext = { transport: 'http', protocolVersion: '2025-11-25' };

export interface BootMcpOptions {
  /** Options merged over `{ name: 'test', version: '1.0.0' }`. */
  options?: Partial<McpModuleOptions>;
  /** A whole McpModule definition instead of `options` (to test forRoot variants). */
  mcp?: DynamicModule;
  /** More modules beside it. */
  imports?: Array<Type | DynamicModule>;
}

const booted: INestApplication[] = [];

/** Boots `providers` under McpModule; the app is closed by {@link closeMcpApps}. */
export async function bootMcp(providers: Provider[] = [], boot: BootMcpOptions = {}): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [boot.mcp ?? McpModule.forRoot({ name: 'test', version: '1.0.0', ...boot.options }), ...(boot.imports ?? [])],
    providers,
  }).compile();
  const app = createTestApp(moduleRef, { logger: false });
  booted.push(app);
  await app.init();
  return app;
}

/** The error `boot` fails with; fails the test when it succeeds. */
export async function bootError(boot: () => Promise<unknown>): Promise<Error> {
  try {
    await boot();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the boot to fail');
}

/** The error `run` throws; fails the test when it returns (the synchronous {@link bootError}). */
export function thrown(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

/**
 * Boots `providers` with `options` for a registry's runtime API: the app, its `registry` (McpToolRegistry,
 * McpPromptRegistry, …) and the list kinds announced from then on (`changes`, e.g. `['prompts']`).
 */
export async function bootRegistry<T>(
  registry: Type<T>,
  providers: Provider[],
  options: Partial<McpModuleOptions>,
): Promise<{ app: INestApplication; registry: T; changes: string[] }> {
  const app = await bootMcp(providers, { options });
  const changes: string[] = [];
  app.get(McpListChanges).listen((kind) => changes.push(kind));
  return { app, registry: app.get(registry), changes };
}

/** Closes every app {@link bootMcp} booted so far (call it in afterEach or afterAll). */
export async function closeMcpApps(): Promise<void> {
  await Promise.all(booted.splice(0).map((app) => app.close().catch(() => undefined)));
}

/** Sends one JSON-RPC request (`id`, `method`, `params`) to the app's dispatcher. */
export function dispatch(
  app: INestApplication,
  method: string,
  params?: Record<string, unknown>,
  options: { id?: string | number; context?: McpRequestContext } = {},
): Promise<JsonRpcResponse | undefined> {
  return app
    .get(McpDispatcher)
    .dispatch({ jsonrpc: '2.0', id: options.id ?? 1, method, ...(params && { params }) }, options.context ?? HTTP_CONTEXT) as Promise<
    JsonRpcResponse | undefined
  >;
}
