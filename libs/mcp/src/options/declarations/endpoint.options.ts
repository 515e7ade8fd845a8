import type { Type } from '@nestjs/common';
import type { McpExplorerOptions, McpModuleExtras } from '../mcp-module-options.interface.js';
import { group, invalidOption, optional, type ResolvedOption } from '../option.builder.js';
import { flag, given, listOf, normalizePath, urlPath } from '../option.values.js';

/** The explorer page: its path is checked once the endpoint's routes are known. */
const EXPLORER = group<McpExplorerOptions>()({ enabled: flag(false), path: given<string>() }, { object: 'such as { enabled: true }' });

/** The extras, known before any async factory runs: paths (which must not collide), explorer, `wellKnownRoot`, `include`. */
export const MCP_ENDPOINT_OPTIONS = group<McpModuleExtras>()(
  {
    path: urlPath('/mcp'),
    isGlobal: given<boolean>(),
    ssePath: given<string | false>(),
    messagesPath: urlPath('/messages'),
    explorer: optional(EXPLORER),
    include: listOf<Type<unknown>, undefined>(
      (module) => typeof module === 'function',
      'must be an array of module classes, such as [WeatherModule] (a dynamic module: its class)',
      undefined,
    ),
    wellKnownRoot: flag(true),
    authBridgeRoutes: flag(false),
    upstreamAuthRoutes: flag(false),
  },
  {
    finish: ({ path, ssePath: sse, messagesPath, explorer, include, wellKnownRoot, authBridgeRoutes, upstreamAuthRoutes }) => {
      const ssePath: string | false = sse === false ? false : normalizePath(sse ?? '/sse', 'ssePath');
      const used = [path, messagesPath, ...(ssePath ? [ssePath] : [])];
      if (new Set(used).size !== used.length)
        throw invalidOption('path', `, ssePath and messagesPath must differ (got ${used.join(', ')})`);
      return {
        path,
        ssePath,
        messagesPath,
        /** Path of the explorer page, or `false` when it is off. */
        explorerPath: explorerPath(explorer, path, used),
        /** Whether this server maps the host-level `/.well-known/...` documents. */
        wellKnownRoot,
        /** Whether `forRootAsync` asked for the authorization-server bridge's routes. */
        authBridgeRoutes,
        /** Whether `forRootAsync` asked for the routes of per-user upstream authorization. */
        upstreamAuthRoutes,
        /** The modules whose providers are scanned; every module when undefined. */
        include: include as readonly Type<unknown>[] | undefined,
      };
    },
  },
);

/** What is fixed when the module is defined: the endpoint paths, the host-level documents and the scanned modules. */
export type McpResolvedPaths = ResolvedOption<typeof MCP_ENDPOINT_OPTIONS>;

/** `<path>/explorer` (checked even while off), or `false`; it may not take an MCP, `<path>/jobs/` or well-known route. */
function explorerPath(explorer: { enabled: boolean; path?: string } | undefined, path: string, used: string[]): string | false {
  if (explorer === undefined) return false;
  const explorerPath = normalizePath(explorer.path ?? `${path}/explorer`, 'explorer.path');
  const taken = [...used, `${path}/jobs`, `${path}/server-card`, '/.well-known'].find(
    (route) => explorerPath === route || (!used.includes(route) && explorerPath.startsWith(`${route}/`)),
  );
  if (taken !== undefined)
    throw invalidOption('explorer.path', `must not collide with the MCP route ${taken} (got ${explorerPath}); try "${path}/explorer"`);
  return explorer.enabled && explorerPath;
}
