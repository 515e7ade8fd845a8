import { createHash } from 'node:crypto';
import { Controller, Get, Inject, Options, Req, Res, VERSION_NEUTRAL, type Type } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { McpResolvedPaths } from '../../options/mcp-options.resolver.js';
import { McpGlobalPrefix } from '../../options/mcp-global-prefix.js';
import { nodeRequestOf, nodeResponseOf } from './http-exchange.js';
import { sendBody, sendHttpError, sendStatus } from './http-json-rpc.responses.js';
import { BAD_HOST, publicBaseUrl } from './public-base-url.js';
import { buildServerCard, SERVER_CARD_MEDIA_TYPE } from './server-card.document.js';
import { HiddenFromOpenApi } from './hidden-from-openapi.decorator.js';

/** Where the card is served: the well-known URI clients and crawlers try on a domain. */
export const SERVER_CARD_WELL_KNOWN_PATH = '/.well-known/mcp/server-card.json';

/** CORS the discovery draft requires of a hosted card: public, read-only metadata, readable by any page. */
const CORS_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET',
  'Access-Control-Allow-Headers': 'Content-Type, If-None-Match',
  'Access-Control-Expose-Headers': 'ETag',
};

/**
 * The MCP Server Card (SEP-2127) at the well-known path and at `<path>/server-card` (reserved by the draft): no guards,
 * it is public discovery metadata. Built per request (its URLs follow the request's host unless `http.publicUrl` is
 * set), with a strong `ETag`. Not routed when forRoot turns it off; with forRootAsync always routed, 404 when disabled.
 */
export function createServerCardController(paths: McpResolvedPaths): Type<unknown> {
  const reservedPath = `${paths.path}/server-card`;
  // The host-level card only where this server keeps `wellKnownRoot` (one server of an app may).
  const routes = paths.wellKnownRoot ? [SERVER_CARD_WELL_KNOWN_PATH, reservedPath] : [reservedPath];

  @HiddenFromOpenApi()
  @Controller({ version: VERSION_NEUTRAL })
  class McpServerCardController {
    constructor(
      @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
      private readonly globalPrefix: McpGlobalPrefix,
    ) {}

    // `If-None-Match` is not a CORS-safelisted header: a browser's revalidation is preflighted.
    @Options(routes)
    preflight(@Res() adapterResponse: unknown): void {
      const response = nodeResponseOf(adapterResponse);
      if (!this.options.serverCard.enabled) return sendHttpError(response, 404, 'No server card is served here');
      for (const [name, value] of Object.entries({ ...CORS_HEADERS, 'Access-Control-Max-Age': '86400' })) response.setHeader(name, value);
      sendStatus(response, 204);
    }

    @Get(routes)
    reserved(@Req() adapterRequest: unknown, @Res() adapterResponse: unknown): void {
      const request = nodeRequestOf(adapterRequest);
      const response = nodeResponseOf(adapterResponse);
      if (!this.options.serverCard.enabled) return sendHttpError(response, 404, 'No server card is served here');
      // The card's URLs are the endpoint's: the prefix Nest puts before the MCP path, wherever the card itself is.
      const baseUrl = publicBaseUrl(request, this.options.http, this.globalPrefix.of(this.options.path));
      if (baseUrl === undefined) return sendHttpError(response, 400, BAD_HOST);
      const contentType = acceptsCardType(request) ? SERVER_CARD_MEDIA_TYPE : 'application/json';
      const body = JSON.stringify(buildServerCard(this.options, baseUrl));
      // Strong validator of these exact bytes in this media type (a representation differs by either).
      const etag = `"${createHash('sha256').update(`${contentType}\n${body}`).digest('base64url').slice(0, 27)}"`;
      const proxied = this.options.http.trustProxy && !this.options.http.publicUrl;
      const headers = {
        ...CORS_HEADERS,
        'Cache-Control': `public, max-age=${this.options.serverCard.maxAgeSec}`,
        ETag: etag,
        // The body follows Accept and, behind a trusted proxy, the forwarded host and scheme.
        Vary: proxied ? 'Accept, X-Forwarded-Host, X-Forwarded-Proto' : 'Accept',
      };
      if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) {
        for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
        return sendStatus(response, 304);
      }
      sendBody(response, 200, { ...headers, 'Content-Type': `${contentType}; charset=utf-8` }, body);
    }
  }
  return McpServerCardController;
}

/** Whether the client asked for `application/mcp-server-card+json` (the discovery draft's SHOULD), else plain JSON. */
function acceptsCardType(request: IncomingMessage): boolean {
  return (request.headers.accept ?? '').split(',').some((range) => range.split(';')[0].trim().toLowerCase() === SERVER_CARD_MEDIA_TYPE);
}

/** RFC 9110 §13.1.2: `*`, or any listed tag equal to ours under weak comparison. */
function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
