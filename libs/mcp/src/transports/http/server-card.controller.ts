import { createHash } from 'node:crypto';
import { Controller, Get, Inject, Options, Req, Res, type Type } from '@nestjs/common';
import type { Request, Response } from 'express';
import { MCP_RESOLVED_OPTIONS } from '../../mcp.module-definition.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { McpResolvedPaths } from '../../options/mcp-options.resolver.js';
import { sendHttpError } from './http-json-rpc.responses.js';
import { publicBaseUrl } from './public-base-url.js';
import { buildServerCard, SERVER_CARD_MEDIA_TYPE } from './server-card.document.js';

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
 * The MCP Server Card (SEP-2127) at `/.well-known/mcp/server-card.json` and at `<path>/server-card` (the location
 * the current draft reserves): no guards, like the protected-resource metadata, since it is discovery metadata
 * with nothing secret in it. Built per request, because its URLs follow the request's host unless `publicUrl`
 * is set; cacheable with `Cache-Control` and a strong `ETag` (304 on a matching `If-None-Match`).
 * Always routed (the options may arrive asynchronously); 404 when `serverCard.enabled` is false.
 */
export function createServerCardController(paths: McpResolvedPaths): Type<unknown> {
  const reservedPath = `${paths.path}/server-card`;

  @Controller()
  class McpServerCardController {
    constructor(@Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions) {}

    @Get(SERVER_CARD_WELL_KNOWN_PATH)
    wellKnown(@Req() request: Request, @Res() response: Response): void {
      this.send(request, response, SERVER_CARD_WELL_KNOWN_PATH);
    }

    @Get(reservedPath)
    reserved(@Req() request: Request, @Res() response: Response): void {
      this.send(request, response, reservedPath);
    }

    // `If-None-Match` is not a CORS-safelisted header: a browser's revalidation is preflighted.
    @Options([SERVER_CARD_WELL_KNOWN_PATH, reservedPath])
    preflight(@Res() response: Response): void {
      if (!this.options.serverCard.enabled) return sendHttpError(response, 404, 'No server card is served here');
      response
        .set({ ...CORS_HEADERS, 'Access-Control-Max-Age': '86400' })
        .status(204)
        .end();
    }

    private send(request: Request, response: Response, routePath: string): void {
      if (!this.options.serverCard.enabled) return sendHttpError(response, 404, 'No server card is served here');
      const baseUrl = publicBaseUrl(request, this.options, routePath);
      if (!URL.canParse(baseUrl) || /\s/.test(baseUrl))
        return sendHttpError(response, 400, 'Bad Request: the Host header is not a valid host');
      const contentType = acceptsCardType(request) ? SERVER_CARD_MEDIA_TYPE : 'application/json';
      const body = JSON.stringify(buildServerCard(this.options, baseUrl));
      // Strong validator of these exact bytes in this media type (a representation differs by either).
      const etag = `"${createHash('sha256').update(`${contentType}\n${body}`).digest('base64url').slice(0, 27)}"`;
      const proxied = this.options.trustProxy && !this.options.publicUrl;
      response.set({
        ...CORS_HEADERS,
        'Cache-Control': `public, max-age=${this.options.serverCard.maxAgeSec}`,
        ETag: etag,
        // The body follows Accept and, behind a trusted proxy, the forwarded host and scheme.
        Vary: proxied ? 'Accept, X-Forwarded-Host, X-Forwarded-Proto' : 'Accept',
      });
      if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) return void response.status(304).end();
      response.status(200).set('Content-Type', `${contentType}; charset=utf-8`).end(body);
    }
  }
  return McpServerCardController;
}

/** Whether the client asked for `application/mcp-server-card+json` (the discovery draft's SHOULD), else plain JSON. */
function acceptsCardType(request: Request): boolean {
  return (request.headers.accept ?? '').split(',').some((range) => range.split(';')[0].trim().toLowerCase() === SERVER_CARD_MEDIA_TYPE);
}

/** RFC 9110 §13.1.2: `*`, or any listed tag equal to ours under weak comparison. */
function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
