import type { McpOutboundAuth } from '../mcp-outbound-auth.interface.js';
import { isPlainObject } from '../../core/plain-object.js';
import { invalidOption } from '../option.builder.js';
import { checkHttpUrl } from '../option.values.js';

const GRANTS = ['tokenExchange', 'clientCredentials'] as const;
const CLIENT_KEYS = new Set([
  'issuer',
  'tokenEndpoint',
  'clientId',
  'clientSecret',
  'clientAuthMethod',
  'resource',
  'audience',
  'scopes',
  'timeoutMs',
  'maxCachedTokens',
]);

const isPositiveInteger = (value: unknown) => typeof value === 'number' && Number.isInteger(value) && value > 0;

/** The problem of one member of an OAuth client entry, or undefined. */
function memberProblem(key: string, value: unknown, at: string): string | undefined {
  switch (key) {
    case 'issuer':
    case 'tokenEndpoint':
    case 'resource':
      checkHttpUrl(value as string, `${at}.${key}`);
      return undefined;
    case 'clientId':
    case 'clientSecret':
    case 'audience':
      return typeof value === 'string' && value !== '' ? undefined : 'must be a non-empty string';
    case 'clientAuthMethod':
      return value === 'client_secret_basic' || value === 'client_secret_post'
        ? undefined
        : 'must be client_secret_basic or client_secret_post';
    case 'scopes':
      return Array.isArray(value) && value.every((scope) => typeof scope === 'string' && /^\S+$/.test(scope))
        ? undefined
        : 'must be an array of scope names';
    default:
      return isPositiveInteger(value) ? undefined : 'must be a positive integer';
  }
}

/**
 * `auth` of an upstream or an OpenAPI source (`at` names it): exactly one grant, its client complete (one of issuer
 * and tokenEndpoint, clientId, clientSecret), no unknown key. Throws naming the member.
 */
export function checkOutboundAuth(value: unknown, at: string): McpOutboundAuth | undefined {
  if (value === undefined) return undefined;
  const grants = isPlainObject(value) ? Object.keys(value) : [];
  if (grants.length !== 1 || !GRANTS.includes(grants[0] as (typeof GRANTS)[number]))
    throw invalidOption(at, 'must be { tokenExchange: { issuer, clientId, clientSecret, resource? } } or { clientCredentials: { ... } }');
  const grant = grants[0];
  const client = (value as Record<string, unknown>)[grant];
  const where = `${at}.${grant}`;
  if (!isPlainObject(client)) throw invalidOption(where, 'must be an object such as { issuer, clientId, clientSecret, resource }');
  for (const [key, member] of Object.entries(client)) {
    if (!CLIENT_KEYS.has(key))
      throw invalidOption(`${where}.${key}`, `is not an option of ${grant} (known: ${[...CLIENT_KEYS].join(', ')})`);
    if (member === undefined) continue;
    const problem = memberProblem(key, member, where);
    if (problem) throw invalidOption(`${where}.${key}`, problem);
  }
  if ((client.issuer === undefined) === (client.tokenEndpoint === undefined))
    throw invalidOption(where, 'needs exactly one of issuer (its metadata names the token endpoint) and tokenEndpoint');
  for (const key of ['clientId', 'clientSecret'] as const)
    if (client[key] === undefined)
      throw invalidOption(`${where}.${key}`, 'is required: the client this server signs in as at the authorization server');
  return value as McpOutboundAuth;
}
