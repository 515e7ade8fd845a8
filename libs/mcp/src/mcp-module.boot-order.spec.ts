import { ModulesContainer } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper.js';
import { bootMcp, closeMcpApps } from '../../../test/kit/boot-mcp.js';
import { McpModule } from './mcp.module.js';

/**
 * The boot orders the library relies on (docs/architecture.md, "Boot order"). Nest 12 runs each hook phase level by
 * level of the injection graph (a provider after everything it injects, shutdown phases the other way round); the
 * providers' list order only decides which hooks of one level start first. So an order that matters must show as
 * levels here: when a change of injections breaks one, inject the earlier provider into the later one (as
 * `McpInstanceLease` does with `McpStoreLifecycle`).
 */
const RUNS_AFTER: [later: string, earlier: string[], why: string][] = [
  [
    'McpComponentLoader',
    ['McpToolExplorer', 'McpRouteExplorer', 'McpOpenApiExplorer', 'McpUpstreamsProvider'],
    'it loads their components',
  ],
  ['McpComponentLoader', ['McpJobToolsProvider', 'McpToolSearchTransform'], 'it loads the job tools and search_tools'],
  ['McpResourceNotifier', ['McpResourceSubscriptions'], 'it announces to the subscriptions'],
  ['McpTaskWorker', ['McpStreamHub', 'McpSessionService'], 'its jobs write to streams and sessions until it stops'],
  [
    'McpInstanceLease',
    ['McpStoreLifecycle'],
    'it gives the lease back in the store at shutdown, before McpStoreLifecycle closes the store (not at once with it)',
  ],
];

/** McpModule's providers with their level in Nest's injection graph. */
function levels(app: INestApplication): Map<string, number> {
  const module = [...app.get(ModulesContainer).values()].find((candidate) => candidate.metatype === McpModule)!;
  const found = new Map<string, number>();
  for (const wrapper of module.providers.values() as Iterable<InstanceWrapper>) {
    const name = (wrapper.instance as object | undefined)?.constructor?.name;
    if (!wrapper.isAlias && name) found.set(name, wrapper.hierarchyLevel);
  }
  return found;
}

describe('McpModule boot order', () => {
  afterAll(closeMcpApps);

  it('runs each hook of a provider after those of the providers it relies on (and stops it before them)', async () => {
    const found = levels(await bootMcp());
    const broken = RUNS_AFTER.flatMap(([later, earlier, why]) =>
      earlier
        .filter((name) => !(found.get(later)! > found.get(name)!))
        .map((name) => `${later} (level ${found.get(later)}) must run after ${name} (level ${found.get(name)}): ${why}`),
    );
    expect(broken).toEqual([]);
  });
});
