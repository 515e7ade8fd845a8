import { Rev20260728Header } from '../../../core/rev-2026-07-28.constants.js';
import { stripOws } from './header-values.js';

/** The request headers of 2026-07-28 read beside the body (HTTP only; trimmed, `Mcp-Name` raw). */
export interface EraHeaders {
  readonly protocolVersion?: string;
  readonly method?: string;
  /** Undecoded (it may be `=?base64?…?=`); absent when the request has none. */
  readonly name?: string;
}

/** Reads them from a channel's headers; optional whitespace around a value is not part of it (RFC 9110). */
export function readEraHeaders(source: { header(name: string): string | undefined }): EraHeaders {
  return {
    protocolVersion: optional(source.header(Rev20260728Header.protocolVersion)),
    method: optional(source.header(Rev20260728Header.method)),
    name: source.header(Rev20260728Header.name),
  };
}

function optional(value: string | undefined): string | undefined {
  return value === undefined ? undefined : stripOws(value);
}
