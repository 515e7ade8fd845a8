import type { McpUpstreamOptions } from '../mcp-upstream-options.interface.js';
import { isPlainObject } from '../../core/plain-object.js';
import { invalidOption, option } from '../option.builder.js';
import { checkOutboundAuth } from './outbound-auth.options.js';

/** An upstream's name: its tools' prefix and its URIs' scheme prefix, so lower-case and scheme-safe. */
export const UPSTREAM_NAME_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;

const KEYS = new Set<string>([
  'name',
  'url',
  'headers',
  'credentials',
  'forwardAuthorization',
  'auth',
  'command',
  'args',
  'env',
  'cwd',
  'scopes',
  'timeoutMs',
  'maxSessions',
  'sessionIdleMs',
]);

const isStringRecord = (value: unknown) => isPlainObject(value) && Object.values(value).every((entry) => typeof entry === 'string');
const isStringList = (value: unknown) => Array.isArray(value) && value.every((entry) => typeof entry === 'string');
const isPositiveInteger = (value: unknown) => typeof value === 'number' && Number.isInteger(value) && value > 0;

/** The problem of one member of an upstream entry, or undefined. */
function memberProblem(key: string, value: unknown): string | undefined {
  switch (key) {
    case 'url':
      return typeof value === 'string' && /^https?:\/\/[^/]/.test(value) ? undefined : 'must be an http(s) URL';
    case 'command':
    case 'cwd':
      return typeof value === 'string' && value !== '' ? undefined : 'must be a non-empty string';
    case 'headers':
    case 'env':
      return isStringRecord(value) ? undefined : 'must be an object of strings';
    case 'args':
    case 'scopes':
      return isStringList(value) ? undefined : 'must be an array of strings';
    case 'credentials':
      return typeof value === 'function' ? undefined : 'must be a function (caller) => headers';
    case 'forwardAuthorization':
      return typeof value === 'boolean' ? undefined : 'must be a boolean';
    default:
      return isPositiveInteger(value) ? undefined : 'must be a positive integer';
  }
}

/** Checks one entry; throws naming `sources.upstreams[i].<field>`. */
function checkUpstream(entry: unknown, at: string, names: Set<string>): McpUpstreamOptions {
  if (!isPlainObject(entry)) throw invalidOption(at, 'must be an object such as { name, url } or { name, command, args }');
  const name = entry.name;
  if (typeof name !== 'string' || !UPSTREAM_NAME_PATTERN.test(name)) {
    throw invalidOption(`${at}.name`, 'must be 1 to 32 lower-case letters, digits or "-", starting with a letter');
  }
  if (names.has(name)) throw invalidOption(`${at}.name`, `"${name}" names two upstreams`);
  names.add(name);
  for (const key of Object.keys(entry)) {
    if (!KEYS.has(key)) throw invalidOption(`${at}.${key}`, `is not an upstream option (known: ${[...KEYS].join(', ')})`);
    if (key === 'name' || entry[key] === undefined) continue;
    if (key === 'auth') {
      checkOutboundAuth(entry.auth, `${at}.auth`, true);
      continue;
    }
    const problem = memberProblem(key, entry[key]);
    if (problem) throw invalidOption(`${at}.${key}`, problem);
  }
  if ((entry.url === undefined) === (entry.command === undefined)) throw invalidOption(at, 'needs exactly one of url and command');
  if (entry.command !== undefined) {
    const httpOnly = ['headers', 'credentials', 'forwardAuthorization', 'auth', 'maxSessions', 'sessionIdleMs'].find(
      (key) => entry[key] !== undefined,
    );
    if (httpOnly)
      throw invalidOption(`${at}.${httpOnly}`, 'applies to url upstreams only (a stdio upstream is one process for every caller)');
  }
  if (entry.forwardAuthorization === true && entry.auth !== undefined)
    throw invalidOption(`${at}.forwardAuthorization`, 'and auth both say what the upstream gets: keep one');
  return entry as unknown as McpUpstreamOptions;
}

/** `sources.upstreams`: MCP servers served behind this one; none by default. */
export const upstreamList = () =>
  option<McpUpstreamOptions[], readonly McpUpstreamOptions[]>((value, at) => {
    if (value === undefined) return [];
    if (!Array.isArray(value)) throw invalidOption(at, 'must be an array of upstream servers ({ name, url } or { name, command, args })');
    const names = new Set<string>();
    return value.map((entry, index) => checkUpstream(entry, `${at}[${index}]`, names));
  });
