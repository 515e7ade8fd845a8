/** Protocol revisions this server speaks, newest first. @publicApi */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

/** @publicApi */
export type McpProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];

/** The newest supported revision: the answer to a client whose version we do not speak. */
export const LATEST_PROTOCOL_VERSION: McpProtocolVersion = SUPPORTED_PROTOCOL_VERSIONS[0];

/** What a Streamable HTTP server assumes when neither a header nor a session names the version (spec 2025-06-18). */
export const DEFAULT_HTTP_PROTOCOL_VERSION: McpProtocolVersion = '2025-03-26';

/** True for a revision in {@link SUPPORTED_PROTOCOL_VERSIONS}. */
export function isSupportedProtocolVersion(version: unknown): version is McpProtocolVersion {
  return typeof version === 'string' && (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

/** Lifecycle negotiation: echo a supported version, otherwise answer with our latest (never an error). */
export function negotiateProtocolVersion(requested: string): McpProtocolVersion {
  return isSupportedProtocolVersion(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

/** Revisions compare as ISO dates, so string order is time order. */
export function isAtLeast(version: string, minimum: McpProtocolVersion): boolean {
  return version >= minimum;
}
