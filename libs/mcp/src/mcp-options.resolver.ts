import { McpConfigurationError } from './mcp-configuration.error.js';
import { McpMessages } from './mcp.messages.js';
import type { McpModuleExtras, McpModuleOptions, McpResolvedOptions } from './interfaces/mcp-module-options.interface.js';

const SERVER_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const MIB = 1024 * 1024;

/** Applies defaults and rejects bad options at boot, naming the option. */
export function resolveMcpOptions(options: McpModuleOptions | undefined, paths: McpResolvedPaths): McpResolvedOptions {
  if (!options || typeof options !== 'object') throw new McpConfigurationError(McpMessages.invalidOption('options', 'must be an object with at least name and version'));
  if (typeof options.name !== 'string' || !SERVER_NAME_PATTERN.test(options.name)) {
    throw new McpConfigurationError(McpMessages.invalidOption('name', 'must be 1 to 64 letters, digits, "_" or "-"'));
  }
  if (typeof options.version !== 'string' || options.version.length === 0) {
    throw new McpConfigurationError(McpMessages.invalidOption('version', 'must be a non-empty string'));
  }
  for (const key of ['title', 'description', 'instructions'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'string') throw new McpConfigurationError(McpMessages.invalidOption(key, 'must be a string'));
  }
  return {
    name: options.name,
    version: options.version,
    title: options.title,
    description: options.description,
    instructions: options.instructions,
    toolTimeoutMs: positiveInteger('toolTimeoutMs', options.toolTimeoutMs, 30_000),
    pageSize: positiveInteger('pageSize', options.pageSize, 100),
    maxBodyBytes: positiveInteger('maxBodyBytes', options.maxBodyBytes, MIB),
    trustProxy: options.trustProxy === true,
    publicUrl: publicUrl(options.publicUrl),
    ...paths,
    sessions: {
      mode: oneOf('sessions.mode', options.sessions?.mode, ['optional', 'required', 'stateless'] as const, 'optional'),
      idleTtlMs: positiveInteger('sessions.idleTtlMs', options.sessions?.idleTtlMs, 30 * 60_000),
    },
    streams: {
      keepAliveMs: positiveInteger('streams.keepAliveMs', options.streams?.keepAliveMs, 15_000),
      maxEventsPerStream: positiveInteger('streams.maxEventsPerStream', options.streams?.maxEventsPerStream, 1_000),
      retryMs: positiveInteger('streams.retryMs', options.streams?.retryMs, 1_000),
    },
  };
}

/** The endpoint paths, fixed when the module is defined. */
export type McpResolvedPaths = Pick<McpResolvedOptions, 'path' | 'ssePath' | 'messagesPath'>;

/** Normalises and checks the paths given as module extras; they must not collide. */
export function resolvePaths(extras: McpModuleExtras): McpResolvedPaths {
  const path = normalizePath(extras.path ?? '/mcp', 'path');
  const ssePath = extras.ssePath === false ? false : normalizePath(extras.ssePath ?? '/sse', 'ssePath');
  const messagesPath = normalizePath(extras.messagesPath ?? '/messages', 'messagesPath');
  const used = [path, messagesPath, ...(ssePath ? [ssePath] : [])];
  if (new Set(used).size !== used.length) throw new McpConfigurationError(McpMessages.invalidOption('path', `, ssePath and messagesPath must differ (got ${used.join(', ')})`));
  return { path, ssePath, messagesPath };
}

function publicUrl(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
    return url.origin + url.pathname.replace(/\/+$/, '');
  } catch {
    throw new McpConfigurationError(McpMessages.invalidOption('publicUrl', `must be an absolute http(s) URL, got "${value}"`));
  }
}

function oneOf<T extends string>(option: string, value: T | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value)) throw new McpConfigurationError(McpMessages.invalidOption(option, `must be one of ${allowed.join(', ')}, got "${String(value)}"`));
  return value;
}

/** `mcp`, `/mcp/` → `/mcp`; the path must be a plain absolute path. */
export function normalizePath(path: string, option = 'path'): string {
  const value = typeof path === 'string' ? `/${path.trim().replace(/^\/+|\/+$/g, '')}` : '';
  if (value === '/' || !/^\/[A-Za-z0-9._~\-/]+$/.test(value)) {
    throw new McpConfigurationError(McpMessages.invalidOption(option, `must be a non-root URL path such as "/mcp", got "${String(path)}"`));
  }
  return value;
}

function positiveInteger(option: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) throw new McpConfigurationError(McpMessages.invalidOption(option, `must be a positive integer, got ${String(value)}`));
  return value;
}
