import { McpConfigurationError } from '../core/errors/mcp-configuration.error.js';
import { McpMessages } from '../core/errors/mcp.messages.js';
import type { McpResolvedServerCardOptions, McpServerCardOptions } from './mcp-server-card-options.interface.js';

/** `name` of a Server Card: reverse-DNS namespace, one slash, server name (SEP-2127 schema, 3 to 200 characters). */
export const SERVER_CARD_NAME_PATTERN = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

/** Longest `title` and `description` the Server Card schema accepts. */
export const SERVER_CARD_TEXT_MAX = 100;

const DEFAULT_MAX_AGE_SEC = 3600;

/**
 * Checks `serverCard` at boot so a card that the schema would reject never ships: each value the user set must
 * be valid as it stands (values inherited from the module options are fitted when the card is built instead).
 */
export function resolveServerCardOptions(card: McpServerCardOptions | undefined): McpResolvedServerCardOptions {
  if (card === undefined) return { enabled: true, maxAgeSec: DEFAULT_MAX_AGE_SEC };
  if (card === null || typeof card !== 'object' || Array.isArray(card))
    throw invalid('serverCard', 'must be an object such as { enabled: false } or { name: "com.example/weather" }');
  if (card.enabled !== undefined && typeof card.enabled !== 'boolean') throw invalid('serverCard.enabled', 'must be a boolean');
  if (card.name !== undefined && (typeof card.name !== 'string' || card.name.length > 200 || !SERVER_CARD_NAME_PATTERN.test(card.name)))
    throw invalid('serverCard.name', `must be reverse-DNS with exactly one "/" such as "com.example/weather" (at most 200 characters)`);
  if (card.description !== undefined && !isText(card.description, SERVER_CARD_TEXT_MAX))
    throw invalid('serverCard.description', `must be a string of 1 to ${SERVER_CARD_TEXT_MAX} characters`);
  if (card.websiteUrl !== undefined) httpUrl('serverCard.websiteUrl', card.websiteUrl);
  if (card.repository !== undefined) checkRepository(card.repository);
  if (card.icons !== undefined) checkIcons(card.icons);
  const maxAgeSec = card.maxAgeSec ?? DEFAULT_MAX_AGE_SEC;
  if (!Number.isInteger(maxAgeSec) || maxAgeSec < 0)
    throw invalid('serverCard.maxAgeSec', `must be an integer of at least 0, got ${String(card.maxAgeSec)}`);
  return { ...card, enabled: card.enabled ?? true, maxAgeSec };
}

function checkRepository(repository: NonNullable<McpServerCardOptions['repository']>): void {
  if (repository === null || typeof repository !== 'object')
    throw invalid('serverCard.repository', 'must be an object such as { url: "https://github.com/acme/weather", source: "github" }');
  httpUrl('serverCard.repository.url', repository.url);
  if (!isText(repository.source)) throw invalid('serverCard.repository.source', 'must be a non-empty string such as "github"');
  for (const key of ['subfolder', 'id'] as const) {
    if (repository[key] !== undefined && !isText(repository[key]))
      throw invalid(`serverCard.repository.${key}`, 'must be a non-empty string');
  }
}

function checkIcons(icons: NonNullable<McpServerCardOptions['icons']>): void {
  if (!Array.isArray(icons)) throw invalid('serverCard.icons', 'must be an array of { src, mimeType?, sizes?, theme? }');
  icons.forEach((icon, index) => {
    const at = `serverCard.icons[${index}]`;
    if (icon === null || typeof icon !== 'object') throw invalid(at, 'must be an object such as { src: "https://example.com/icon.png" }');
    if (typeof icon.src !== 'string' || !/^(https?:\/\/\S+|data:\S+)$/.test(icon.src))
      throw invalid(`${at}.src`, 'must be an http(s) or data: URI');
    if (icon.mimeType !== undefined && !isText(icon.mimeType))
      throw invalid(`${at}.mimeType`, 'must be a non-empty string such as "image/png"');
    if (icon.sizes !== undefined && (!Array.isArray(icon.sizes) || icon.sizes.some((size) => !isText(size))))
      throw invalid(`${at}.sizes`, 'must be an array of strings such as ["48x48"] or ["any"]');
    if (icon.theme !== undefined && icon.theme !== 'light' && icon.theme !== 'dark')
      throw invalid(`${at}.theme`, 'must be "light" or "dark"');
  });
}

function httpUrl(option: string, value: unknown): void {
  let protocol: string | undefined;
  try {
    protocol = typeof value === 'string' ? new URL(value).protocol : undefined;
  } catch {
    protocol = undefined;
  }
  if (protocol !== 'http:' && protocol !== 'https:') throw invalid(option, `must be an absolute http(s) URL, got "${String(value)}"`);
}

/** A non-empty string of at most `max` characters, counted in code points as JSON Schema's `maxLength` does. */
function isText(value: unknown, max = Infinity): value is string {
  return typeof value === 'string' && value.length > 0 && Array.from(value).length <= max;
}

function invalid(option: string, problem: string): McpConfigurationError {
  return new McpConfigurationError(McpMessages.invalidOption(option, problem));
}
