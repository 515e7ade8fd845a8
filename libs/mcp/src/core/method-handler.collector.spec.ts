import 'reflect-metadata';
import { Injectable, Module, Scope, type INestApplication, type OnModuleInit, type Provider } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { McpConfigurationError } from './errors/mcp-configuration.error.js';
import { collectMethodHandlers, servedMethods } from './method-handler.collector.js';
import { McpMethodHandlerProvider } from './method-handler.decorator.js';
import type { McpMethodHandler, McpMethodHandlerGroup } from './method-handler.interface.js';

/** A registry filled at onModuleInit, like the explorers do. */
@Injectable()
class Catalogue implements OnModuleInit {
  entries = 0;
  onModuleInit(): void {
    this.entries = 1;
  }
}

@McpMethodHandlerProvider()
@Injectable()
class ThingsListHandler implements McpMethodHandler {
  readonly method = 'things/list';
  constructor(private readonly catalogue: Catalogue) {}
  isServed(): boolean {
    return this.catalogue.entries > 0;
  }
  handle(): Record<string, unknown> {
    return { things: [] };
  }
}

@McpMethodHandlerProvider()
@Injectable()
class AlwaysHandler implements McpMethodHandler {
  readonly method = 'always';
  handle(): Record<string, unknown> {
    return {};
  }
}

@McpMethodHandlerProvider()
@Injectable()
class NeverHandler implements McpMethodHandler {
  readonly method = 'never';
  isServed(): boolean {
    return false;
  }
  handle(): Record<string, unknown> {
    return {};
  }
}

@McpMethodHandlerProvider()
@Injectable()
class OtherAlwaysHandler implements McpMethodHandler {
  readonly method = 'always';
  handle(): Record<string, unknown> {
    return {};
  }
}

@McpMethodHandlerProvider()
@Injectable({ scope: Scope.REQUEST })
class RequestScopedHandler implements McpMethodHandler {
  readonly method = 'per-request';
  handle(): Record<string, unknown> {
    return {};
  }
}

@McpMethodHandlerProvider()
@Injectable()
class ThingsHandlers implements McpMethodHandlerGroup {
  readonly handlers: McpMethodHandler[] = [
    { method: 'things/get', handle: () => ({ thing: {} }) },
    { method: 'things/hidden', isServed: () => false, handle: () => ({}) },
  ];
}

/** Not marked: never collected, even though it has the shape. */
@Injectable()
class UnmarkedHandler implements McpMethodHandler {
  readonly method = 'unmarked';
  handle(): Record<string, unknown> {
    return {};
  }
}

const apps: INestApplication[] = [];
afterAll(async () => Promise.all(apps.splice(0).map((app) => app.close())));

async function discoveryWith(providers: Provider[]): Promise<DiscoveryService> {
  @Module({ imports: [DiscoveryModule], providers })
  class FixtureModule {}
  const moduleRef = await Test.createTestingModule({ imports: [FixtureModule] }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  apps.push(app);
  await app.init();
  return app.get(DiscoveryService);
}

describe('method handler registration', () => {
  it('collects every marked provider once (aliases and unmarked providers are skipped)', async () => {
    const discovery = await discoveryWith([
      Catalogue,
      ThingsListHandler,
      AlwaysHandler,
      UnmarkedHandler,
      { provide: 'ALIAS', useExisting: AlwaysHandler },
      { provide: 'NULL_PROTOTYPE', useValue: Object.create(null) },
    ]);
    const collected = collectMethodHandlers(discovery);
    expect(collected.map(({ handler, site }) => [handler.method, site]).sort()).toEqual([
      ['always', 'AlwaysHandler'],
      ['things/list', 'ThingsListHandler'],
    ]);
  });

  it('collects each handler of a group, named by the group, each asked isServed() on its own', async () => {
    const discovery = await discoveryWith([ThingsHandlers, AlwaysHandler]);
    const collected = collectMethodHandlers(discovery);
    expect(collected.map(({ handler, site }) => [handler.method, site])).toEqual([
      ['things/get', 'ThingsHandlers'],
      ['things/hidden', 'ThingsHandlers'],
      ['always', 'AlwaysHandler'],
    ]);
    expect([...servedMethods(collected).keys()]).toEqual(['things/get', 'always']);
  });

  it('serves only what answers isServed() with true, asked after every onModuleInit', async () => {
    const discovery = await discoveryWith([Catalogue, ThingsListHandler, AlwaysHandler, NeverHandler]);
    expect([...servedMethods(collectMethodHandlers(discovery)).keys()].sort()).toEqual(['always', 'things/list']);
  });

  it('refuses two served handlers for one method, naming both', async () => {
    const discovery = await discoveryWith([AlwaysHandler, OtherAlwaysHandler]);
    expect(() => servedMethods(collectMethodHandlers(discovery))).toThrow(McpConfigurationError);
    expect(() => servedMethods(collectMethodHandlers(discovery))).toThrow(
      /"always" is served twice, by AlwaysHandler and by OtherAlwaysHandler/,
    );
  });

  it('allows a second handler for a method when only one is served', async () => {
    const discovery = await discoveryWith([NeverHandler, { provide: 'NEVER_TWICE', useClass: NeverHandler }, AlwaysHandler]);
    expect([...servedMethods(collectMethodHandlers(discovery)).keys()]).toEqual(['always']);
  });

  it('refuses a request-scoped handler at boot, naming it', async () => {
    const discovery = await discoveryWith([RequestScopedHandler]);
    expect(() => collectMethodHandlers(discovery)).toThrow(/RequestScopedHandler is a method handler .* request-scoped/);
  });
});
