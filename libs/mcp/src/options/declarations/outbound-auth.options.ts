import type { McpOutboundAuth } from '../mcp-outbound-auth.interface.js';
import { isPlainObject } from '../../core/plain-object.js';
import { invalidOption } from '../option.builder.js';
import { checkHttpUrl } from '../option.values.js';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { McpOutboundAuthMessages } from '../outbound-auth.messages.js';

const GRANTS = ['tokenExchange', 'clientCredentials', 'authorizationCode'] as const;
/** Members of `authorizationCode` beside the client's (per-user authorization of an upstream). */
const USER_KEYS = new Set(['publicUrl', 'encryptionKey', 'confirmUser', 'flowTtlMs', 'connectionTtlMs']);
/** The shortest `encryptionKey` accepted: 32 characters (256 bits of a random base64 or hex secret at best). */
export const MIN_ENCRYPTION_KEY_LENGTH = 32;
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
    case 'publicUrl':
      checkHttpUrl(value as string, `${at}.${key}`);
      return undefined;
    case 'clientId':
    case 'clientSecret':
    case 'audience':
    case 'encryptionKey':
      return typeof value === 'string' && value !== '' ? undefined : 'must be a non-empty string';
    case 'clientAuthMethod':
      return value === 'client_secret_basic' || value === 'client_secret_post'
        ? undefined
        : 'must be client_secret_basic or client_secret_post';
    case 'confirmUser':
      return value === 'same-subject' || value === 'unverified' || typeof value === 'function'
        ? undefined
        : "must be 'same-subject', 'unverified' or a function (user, claims) => boolean";
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
export function checkOutboundAuth(value: unknown, at: string, perUser = false): McpOutboundAuth | undefined {
  if (value === undefined) return undefined;
  const grants = isPlainObject(value) ? Object.keys(value) : [];
  const allowed: readonly string[] = perUser ? GRANTS : GRANTS.filter((grant) => grant !== 'authorizationCode');
  if (grants.length !== 1 || !allowed.includes(grants[0]))
    throw invalidOption(
      at,
      `must be { tokenExchange: { issuer, clientId, clientSecret, resource? } } or { clientCredentials: { ... } }${perUser ? ' or { authorizationCode: { ..., publicUrl, encryptionKey } }' : ''}`,
    );
  const grant = grants[0];
  const client = (value as Record<string, unknown>)[grant];
  const where = `${at}.${grant}`;
  if (!isPlainObject(client)) throw invalidOption(where, 'must be an object such as { issuer, clientId, clientSecret, resource }');
  const known = grant === 'authorizationCode' ? new Set([...CLIENT_KEYS, ...USER_KEYS]) : CLIENT_KEYS;
  for (const [key, member] of Object.entries(client)) {
    if (!known.has(key) || (grant === 'authorizationCode' && (key === 'tokenEndpoint' || key === 'audience')))
      throw invalidOption(`${where}.${key}`, `is not an option of ${grant} (known: ${[...known].join(', ')})`);
    if (member === undefined) continue;
    const problem = memberProblem(key, member, where);
    if (problem) throw invalidOption(`${where}.${key}`, problem);
  }
  if ((client.issuer === undefined) === (client.tokenEndpoint === undefined))
    throw invalidOption(where, 'needs exactly one of issuer (its metadata names the token endpoint) and tokenEndpoint');
  for (const key of ['clientId', 'clientSecret'] as const)
    if (client[key] === undefined)
      throw invalidOption(`${where}.${key}`, 'is required: the client this server signs in as at the authorization server');
  if (grant === 'authorizationCode') checkUserAuthorization(client, where);
  return value as McpOutboundAuth;
}

/**
 * `authorizationCode`: the issuer (its authorization endpoint), this server's public URL, a long enough key, and how
 * the person who completes a sign-in is confirmed to be the user it was started for (a decision: no default).
 */
function checkUserAuthorization(client: Record<string, unknown>, where: string): void {
  if (client.issuer === undefined) throw invalidOption(`${where}.issuer`, 'is required: its metadata names the authorization endpoint');
  if (client.publicUrl === undefined)
    throw invalidOption(`${where}.publicUrl`, "is required: this server's public origin, where the user's browser is sent");
  const key = client.encryptionKey;
  if (typeof key !== 'string' || key.length < MIN_ENCRYPTION_KEY_LENGTH)
    throw new McpConfigurationError(
      McpOutboundAuthMessages.userAuthorizationKey(`${where}.encryptionKey`, key === undefined ? 'is required' : 'is too short'),
    );
  if (client.confirmUser === undefined)
    throw new McpConfigurationError(McpOutboundAuthMessages.userAuthorizationConfirm(`${where}.confirmUser`));
}
