import type { IncomingMessage } from 'node:http';
import type { EraClaim } from '../../eras/era-claim.js';
import { stripOws } from '../../eras/rev-2026-07-28/header-values.js';
import { Rev20260728Header } from '../../core/rev-2026-07-28.constants.js';
import { headerOf } from './incoming-json.js';

/** A POST's claim for the era router: the body and the revision headers (trimmed of optional whitespace); never pinned. */
export function classifyHttpPost(request: IncomingMessage, body: unknown): EraClaim {
  const protocolVersion = optional(headerOf(request, Rev20260728Header.protocolVersion));
  return {
    message: body,
    channelRevision: protocolVersion,
    pinned: false,
    headers: {
      protocolVersion,
      method: optional(headerOf(request, Rev20260728Header.method)),
      name: headerOf(request, Rev20260728Header.name),
    },
  };
}

function optional(value: string | undefined): string | undefined {
  return value === undefined ? undefined : stripOws(value);
}
