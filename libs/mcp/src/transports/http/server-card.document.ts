import { MCP_PROTOCOL_REVISIONS, SUPPORTED_PROTOCOL_VERSIONS } from '../../core/protocol-revisions.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import { SERVER_CARD_TEXT_MAX } from '../../options/declarations/server-card.options.js';

/** The `$schema` every v1 Server Card carries (the schema's own pattern allows only this URL). */
export const SERVER_CARD_SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

/** The media type of a Server Card (SEP-2127 discovery). */
export const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server-card+json';

interface ServerCardRemote {
  type: 'streamable-http' | 'sse';
  url: string;
  supportedProtocolVersions: string[];
}

/** Revisions whose HTTP transport is Streamable HTTP, per the revisions table (both eras). */
const STREAMABLE_HTTP_VERSIONS = MCP_PROTOCOL_REVISIONS.filter((row) => row.httpTransport === 'streamable-http').map((row) => row.version);

/** The Server Card seen from `baseUrl`; tools, resources and prompts stay out: the draft leaves them to the list operations. */
export function buildServerCard(options: McpResolvedOptions, baseUrl: string): Record<string, unknown> {
  const card = options.serverCard;
  const remotes: ServerCardRemote[] = [
    { type: 'streamable-http', url: `${baseUrl}${options.path}`, supportedProtocolVersions: [...STREAMABLE_HTTP_VERSIONS] },
  ];
  // `initialize` on the HTTP+SSE stream negotiates any revision of the session era, not only the one HTTP+SSE came with.
  if (options.ssePath !== false)
    remotes.push({ type: 'sse', url: `${baseUrl}${options.ssePath}`, supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS] });
  const title = options.title === undefined ? undefined : fit(options.title);
  return {
    $schema: SERVER_CARD_SCHEMA_URL,
    name: card.name ?? defaultCardName(new URL(baseUrl).hostname, options.name),
    version: options.version,
    description: card.description ?? fit(options.description || `MCP server ${options.title || options.name}`),
    ...(title && { title }),
    ...(card.websiteUrl && { websiteUrl: card.websiteUrl }),
    ...(card.repository && { repository: card.repository }),
    ...(card.icons && { icons: card.icons }),
    remotes,
  };
}

/**
 * `<host reversed>/<module name>`: `mcp.example.com` → `com.example.mcp/weather-server`; a host that is no DNS name
 * becomes one label under `local` (`127.0.0.1` → `local.127-0-0-1/weather-server`): plainly not a public namespace.
 */
export function defaultCardName(hostname: string, serverName: string): string {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  const isDnsName = /[a-z]/.test(host) && host.includes('.') && !host.includes(':');
  const namespace = isDnsName
    ? host
        .split('.')
        .reverse()
        .join('.')
        .replace(/[^a-z0-9.-]/g, '-')
    : `local.${host.replace(/[^a-z0-9-]/g, '-') || 'localhost'}`;
  // The schema allows 200 characters in all; the server name (at most 64) is kept whole.
  return `${namespace.slice(0, 199 - serverName.length)}/${serverName}`;
}

/** A text inherited from the module options, cut to what the schema accepts (counted in code points, as JSON Schema does). */
function fit(text: string): string {
  const characters = Array.from(text);
  return characters.length <= SERVER_CARD_TEXT_MAX ? text : `${characters.slice(0, SERVER_CARD_TEXT_MAX - 1).join('')}…`;
}
