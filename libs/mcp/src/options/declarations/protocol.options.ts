import type { McpListChangedOptions, McpRequestStateOptions } from '../mcp-module-options.interface.js';
import { group } from '../option.builder.js';
import { checked, onlyTrue, positiveInteger } from '../option.values.js';

/** `requestState` of 2026-07-28 input rounds; a `secret` too short for HMAC-SHA256 fails the boot. */
export const MCP_REQUEST_STATE_OPTIONS = group<McpRequestStateOptions>()(
  {
    // The value is a secret: the message names the option, never the value.
    secret: checked<string>(
      (secret) => typeof secret === 'string' && secret.length >= 32,
      'must be a string of at least 32 characters (HMAC-SHA256 needs 256 bits of key)',
    ),
    ttlMs: positiveInteger(10 * 60_000),
  },
  { object: 'such as { secret: process.env.MCP_REQUEST_STATE_SECRET }' },
);

/** `listChanged`: which lists announce their changes (both eras); each is off unless set to true. */
export const MCP_LIST_CHANGED_OPTIONS = group<McpListChangedOptions>()(
  { tools: onlyTrue(), prompts: onlyTrue(), resources: onlyTrue() },
  { object: 'such as { tools: true }' },
);
