import type { McpUpstreamOptions } from '@nest-mcp/core';
import { GatewayEnvError } from './gateway-env.error.js';

/** An OpenAPI document served as an upstream (`{ name, openapi, baseUrl, forwardAuthorization }`): the option `openapi`. */
export interface GatewayOpenApiUpstream {
  name: string;
  /** The URL of the OpenAPI document (`http://127.0.0.1:3100/docs-json`). */
  openapi: string;
  /** Where its operations are called (by default the document's origin). */
  baseUrl?: string;
  headers?: Record<string, string>;
  forwardAuthorization?: boolean;
  timeoutMs?: number;
}

/** `GATEWAY_UPSTREAMS`, split by kind. */
export interface GatewayUpstreams {
  mcp: McpUpstreamOptions[];
  openapi: GatewayOpenApiUpstream[];
}

const VARIABLE = 'GATEWAY_UPSTREAMS';
const NAME = /^[a-z][a-z0-9-]{0,31}$/;

/** The fields each kind of entry takes (besides `name`), with the check of each. */
const FIELDS: Record<'url' | 'command' | 'openapi', Record<string, (value: unknown) => string | undefined>> = {
  url: {
    url: httpUrl,
    headers: stringRecord,
    forwardAuthorization: boolean,
    auth: outboundAuth,
    scopes: stringList,
    timeoutMs: positiveInteger,
  },
  command: { command: nonEmpty, args: stringList, env: stringRecord, cwd: nonEmpty, scopes: stringList, timeoutMs: positiveInteger },
  openapi: { openapi: httpUrl, baseUrl: httpUrl, headers: stringRecord, forwardAuthorization: boolean, timeoutMs: positiveInteger },
};

/** The grants an `auth` of a url entry names (the library checks their members at boot). */
const AUTH_GRANTS = ['clientCredentials', 'tokenExchange', 'authorizationCode'];
/** Members of `auth` that may name a variable of the gateway's environment (`"env:NAME"`) instead of holding a secret. */
const SECRET_MEMBERS = ['clientSecret', 'encryptionKey'];

/**
 * `GATEWAY_UPSTREAMS`: a JSON array of `{ name, url, headers?, forwardAuthorization?, auth?, scopes?, timeoutMs? }` (an
 * MCP server over HTTP; `auth` is the library's `{ clientCredentials | tokenExchange | authorizationCode: {...} }`, its
 * `clientSecret` and `encryptionKey` given as `"env:NAME"` to read them from `env`), `{ name, command, args?, env?, cwd?, scopes?, timeoutMs? }` (a stdio server it spawns) and
 * `{ name, openapi, baseUrl?, headers?, forwardAuthorization?, timeoutMs? }` (an OpenAPI document). Unset or empty: no
 * upstream. Anything malformed throws a GatewayEnvError naming the entry and the field.
 */
export function upstreamsFromEnv(value: string | undefined, env: NodeJS.ProcessEnv = {}): GatewayUpstreams {
  const upstreams: GatewayUpstreams = { mcp: [], openapi: [] };
  if (value === undefined || value.trim() === '') return upstreams;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new GatewayEnvError(
      `${VARIABLE} is not valid JSON; expected an array such as [{"name":"weather","url":"http://127.0.0.1:3000/mcp"}]`,
    );
  }
  if (!Array.isArray(parsed)) throw new GatewayEnvError(`${VARIABLE} must be a JSON array of upstream entries`);
  const names = new Set<string>();
  parsed.forEach((entry: unknown, index) => {
    const at = `${VARIABLE}[${index}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new GatewayEnvError(`${at} must be an object`);
    const record = entry as Record<string, unknown>;
    if (typeof record.name !== 'string' || !NAME.test(record.name)) {
      throw new GatewayEnvError(`${at}.name must be 1 to 32 lower-case letters, digits or "-", starting with a letter`);
    }
    if (names.has(record.name)) throw new GatewayEnvError(`${at}.name "${record.name}" names two upstreams`);
    names.add(record.name);
    const kinds = (['url', 'command', 'openapi'] as const).filter((kind) => record[kind] !== undefined);
    if (kinds.length !== 1) throw new GatewayEnvError(`${at} (${record.name}) needs exactly one of url, command and openapi`);
    const kind = kinds[0];
    for (const [field, fieldValue] of Object.entries(record)) {
      if (field === 'name') continue;
      const check = FIELDS[kind][field];
      if (!check)
        throw new GatewayEnvError(
          `${at}.${field} (${record.name}) is not a field of a ${kind} entry; use ${Object.keys(FIELDS[kind]).join(', ')}`,
        );
      const problem = check(fieldValue);
      if (problem) throw new GatewayEnvError(`${at}.${field} (${record.name}) ${problem}`);
    }
    if (kind === 'openapi') upstreams.openapi.push(record as unknown as GatewayOpenApiUpstream);
    else
      upstreams.mcp.push(
        (record.auth === undefined ? record : { ...record, auth: withSecrets(record, at, env) }) as unknown as McpUpstreamOptions,
      );
  });
  return upstreams;
}

function httpUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be an http(s) URL';
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol) ? undefined : 'must be an http(s) URL';
  } catch {
    return 'must be an http(s) URL';
  }
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? undefined : 'must be a non-empty string';
}

function stringList(value: unknown): string | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? undefined : 'must be an array of strings';
}

function stringRecord(value: unknown): string | undefined {
  const ok =
    typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((item) => typeof item === 'string');
  return ok ? undefined : 'must be an object of strings';
}

function boolean(value: unknown): string | undefined {
  return typeof value === 'boolean' ? undefined : 'must be true or false';
}

function positiveInteger(value: unknown): string | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? undefined : 'must be a positive integer';
}

function outboundAuth(value: unknown): string | undefined {
  const grants = typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value) : [];
  const client = grants.length === 1 ? (value as Record<string, unknown>)[grants[0]] : undefined;
  return AUTH_GRANTS.includes(grants[0] ?? '') && typeof client === 'object' && client !== null && !Array.isArray(client)
    ? undefined
    : `must be one of { ${AUTH_GRANTS.join(' | ')}: { issuer, clientId, clientSecret, ... } }`;
}

/** The entry's `auth` with each `"env:NAME"` secret read from the gateway's environment (an unset one is an error). */
function withSecrets(record: Record<string, unknown>, at: string, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const auth = record.auth as Record<string, Record<string, unknown>>;
  const [grant] = Object.keys(auth);
  const client = { ...auth[grant] };
  for (const member of SECRET_MEMBERS) {
    const reference = /^env:(\w+)$/.exec(String(client[member] ?? ''))?.[1];
    if (reference === undefined) continue;
    const secret = env[reference];
    if (!secret) throw new GatewayEnvError(`${at}.auth.${grant}.${member} (${String(record.name)}) names ${reference}, which is not set`);
    client[member] = secret;
  }
  return { [grant]: client };
}
