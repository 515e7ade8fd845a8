import type { McpServerCardOptions } from '../mcp-server-card-options.interface.js';
import { group, list, optional } from '../option.builder.js';
import { checked, flag, nonNegativeInteger, required } from '../option.values.js';

/** `name` of a Server Card: reverse-DNS namespace, one slash, server name (SEP-2127 schema, 3 to 200 characters). */
export const SERVER_CARD_NAME_PATTERN = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

/** Longest `title` and `description` the Server Card schema accepts. */
export const SERVER_CARD_TEXT_MAX = 100;

/** A non-empty string of at most `max` characters, counted in code points as JSON Schema's `maxLength` does. */
const isText = (value: unknown, max = Infinity): value is string =>
  typeof value === 'string' && value.length > 0 && Array.from(value).length <= max;
const isHttpUrl = (value: unknown) => typeof value === 'string' && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
const notHttpUrl = (value: unknown) => `must be an absolute http(s) URL, got "${String(value)}"`;

const REPOSITORY = group<NonNullable<McpServerCardOptions['repository']>>()(
  {
    url: required<string>(isHttpUrl, notHttpUrl),
    source: required<string>(isText, 'must be a non-empty string such as "github"'),
    subfolder: checked<string>(isText, 'must be a non-empty string'),
    id: checked<string>(isText, 'must be a non-empty string'),
  },
  { object: 'such as { url: "https://github.com/acme/weather", source: "github" }' },
);

const ICON = group<NonNullable<McpServerCardOptions['icons']>[number]>()(
  {
    src: required<string>((src) => typeof src === 'string' && /^(https?:\/\/\S+|data:\S+)$/.test(src), 'must be an http(s) or data: URI'),
    mimeType: checked<string>(isText, 'must be a non-empty string such as "image/png"'),
    sizes: checked<string[]>(
      (sizes) => Array.isArray(sizes) && sizes.every((size) => isText(size)),
      'must be an array of strings such as ["48x48"] or ["any"]',
    ),
    theme: checked<'light' | 'dark'>((theme) => theme === 'light' || theme === 'dark', 'must be "light" or "dark"'),
  },
  { object: 'such as { src: "https://example.com/icon.png" }' },
);

/** `serverCard`, checked at boot: each value the user set must be valid as it stands (inherited ones are fitted). */
export const MCP_SERVER_CARD_OPTIONS = group<McpServerCardOptions>()(
  {
    enabled: flag(true),
    name: checked<string>(
      (name) => typeof name === 'string' && name.length <= 200 && SERVER_CARD_NAME_PATTERN.test(name),
      'must be reverse-DNS with exactly one "/" such as "com.example/weather" (at most 200 characters)',
    ),
    description: checked<string>(
      (description) => isText(description, SERVER_CARD_TEXT_MAX),
      `must be a string of 1 to ${SERVER_CARD_TEXT_MAX} characters`,
    ),
    websiteUrl: checked<string>(isHttpUrl, notHttpUrl),
    repository: optional(REPOSITORY),
    icons: list(ICON, 'must be an array of { src, mimeType?, sizes?, theme? }'),
    maxAgeSec: nonNegativeInteger(3600),
  },
  { object: 'such as { enabled: false } or { name: "com.example/weather" }' },
);
