import { McpConfigurationError } from '../core/errors/mcp-configuration.error.js';
import { assertKnownOptionKeys } from './mcp-option-keys.js';
import { McpOutboundAuthMessages } from './outbound-auth.messages.js';
import { invalidOption } from './option.builder.js';
import { MCP_ENDPOINT_OPTIONS, type McpResolvedPaths } from './declarations/endpoint.options.js';
import { MCP_MODULE_OPTIONS, type McpResolvedOptions } from './declarations/module.options.js';
import type { McpModuleExtras, McpModuleOptions } from './mcp-module-options.interface.js';
import { isMcpAuthorizationCodeAuth } from './authorization-code-auth.js';

export type { McpResolvedPaths } from './declarations/endpoint.options.js';
export { defaultKeyPrefix } from './declarations/redis.options.js';
export { normalizePath } from './option.values.js';

/** The keys `McpModule.forRoot()` accepts: the options and the extras it passes through beside them. */
const KNOWN_KEYS = { ...MCP_MODULE_OPTIONS.members, ...MCP_ENDPOINT_OPTIONS.members };

/** Applies defaults and rejects bad options at boot, naming the option. */
export function resolveMcpOptions(options: McpModuleOptions | undefined, paths: McpResolvedPaths): McpResolvedOptions {
  if (!options || typeof options !== 'object') throw invalidOption('options', 'must be an object with at least name and version');
  assertKnownOptionKeys(options, KNOWN_KEYS);
  const resolved: McpResolvedOptions = { ...MCP_MODULE_OPTIONS.resolve(options, '', paths), ...paths };
  refuseTokenPassthrough(resolved);
  refuseUserAuthorizationWithoutUsers(resolved);
  // A gateway's lists change with its upstreams': they are announced whatever `lists.listChanged` says.
  if (resolved.sources.upstreams.length === 0) return resolved;
  return { ...resolved, lists: { ...resolved.lists, listChanged: { tools: true, prompts: true, resources: true } } };
}

/**
 * Tokens from `auth.oauth` were issued for this server (their audience): passing one on to another service is the
 * token passthrough the MCP security guidance forbids. Forwarding stays for one trust domain (`auth.jwt`, API keys).
 */
function refuseTokenPassthrough(resolved: McpResolvedOptions): void {
  if (!resolved.auth.oauth) return;
  const forwarding = [
    ...resolved.sources.upstreams.map((upstream, index) => [`sources.upstreams[${index}]`, upstream.forwardAuthorization] as const),
    ...resolved.sources.openapi.map((source, index) => [`sources.openapi[${index}]`, source.forwardAuthorization] as const),
  ].find(([, forward]) => forward === true);
  if (forwarding) throw new McpConfigurationError(McpOutboundAuthMessages.tokenPassthrough(forwarding[0]));
}

/** The first upstream on per-user authorization (`auth.authorizationCode`), or -1. */
export function perUserUpstreamIndex(resolved: McpResolvedOptions): number {
  return resolved.sources.upstreams.findIndex((upstream) => isMcpAuthorizationCodeAuth(upstream.auth));
}

/** Per-user authorization of an upstream connects a signed-in user's account: without inbound auth there is none. */
function refuseUserAuthorizationWithoutUsers(resolved: McpResolvedOptions): void {
  const { jwt, oauth, bridge, apiKeys, authenticator } = resolved.auth;
  if (jwt || oauth || bridge || apiKeys?.length || authenticator) return;
  const index = perUserUpstreamIndex(resolved);
  if (index >= 0) throw new McpConfigurationError(McpOutboundAuthMessages.userAuthorizationWithoutUsers(`sources.upstreams[${index}]`));
}

/** Normalises and checks the module extras: the paths (they must not collide), `wellKnownRoot` and `include`. */
export function resolvePaths(extras: McpModuleExtras): McpResolvedPaths {
  return MCP_ENDPOINT_OPTIONS.resolve(extras, '', undefined);
}
