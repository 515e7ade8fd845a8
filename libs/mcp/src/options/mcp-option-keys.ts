import { isObjectLiteral } from '../core/plain-object.js';
import { closestName } from './closest-name.js';
import { McpConfigurationError } from '../core/errors/mcp-configuration.error.js';
import { McpMessages } from '../core/errors/mcp.messages.js';
import type { McpOptionMembers } from './option.builder.js';

/** Keys of earlier releases that are gone, each with what replaced it (checked, as the moved ones, before the did-you-mean). */
const REMOVED_OPTION_KEYS: Readonly<Record<string, string>> = {
  modern:
    'was split into "requestState" ({ secret, ttlMs }: was modern.requestStateSecret and modern.requestStateTtlMs) and "lists.listChanged" ({ tools, prompts, resources }: was modern.listChanged)',
};

/** Top-level keys of 0.1.0 that moved into a group in 0.2.0, each with its new path (CHANGELOG "Moved options"). */
export const MOVED_OPTION_KEYS: Readonly<Record<string, string>> = {
  publicUrl: 'http.publicUrl',
  trustProxy: 'http.trustProxy',
  allowedOrigins: 'http.allowedOrigins',
  allowedHosts: 'http.allowedHosts',
  maxBodyBytes: 'http.maxBodyBytes',
  streams: 'http.streams',
  toolTimeoutMs: 'tools.timeoutMs',
  toolFilters: 'tools.filters',
  transforms: 'tools.transforms',
  toolSearch: 'tools.search',
  hideGuardedTools: 'tools.hideGuarded',
  routes: 'sources.routes',
  openapi: 'sources.openapi',
  upstreams: 'sources.upstreams',
  pageSize: 'lists.pageSize',
  listChanged: 'lists.listChanged',
  instanceLease: 'redis.instanceLease',
  metrics: 'observability.metrics',
  tracing: 'observability.tracing',
};

/** Refuses an unknown key (`sesions`) of a plain object, naming the nearest valid one: a typo would boot with its default. */
export function assertKnownOptionKeys(value: object, members: McpOptionMembers<never>, path = ''): void {
  for (const [key, member] of Object.entries(value)) {
    if (path === '' && Object.hasOwn(REMOVED_OPTION_KEYS, key))
      throw new McpConfigurationError(McpMessages.removedOption(key, REMOVED_OPTION_KEYS[key]));
    if (path === '' && Object.hasOwn(MOVED_OPTION_KEYS, key))
      throw new McpConfigurationError(McpMessages.movedOption(key, MOVED_OPTION_KEYS[key]));
    const known = Object.hasOwn(members, key) ? members[key] : undefined;
    if (known === undefined) throw unknownKey(path, key, Object.keys(members));
    if (known.each && Array.isArray(member)) {
      const each = known.each;
      member.forEach((item, index) => isObjectLiteral(item) && assertKnownOptionKeys(item, each, `${path}${key}[${index}].`));
    } else if (known.members && isObjectLiteral(member)) {
      assertKnownOptionKeys(member, known.members, `${path}${key}.`);
    }
  }
}

function unknownKey(path: string, key: string, known: string[]): McpConfigurationError {
  // Bounded: the key may be anything a config file held.
  const closest = closestName(key.slice(0, 100), known);
  return new McpConfigurationError(
    McpMessages.unknownOption(
      `${path}${key}`,
      closest === undefined ? undefined : `${path}${closest}`,
      known.map((name) => `${path}${name}`),
    ),
  );
}
