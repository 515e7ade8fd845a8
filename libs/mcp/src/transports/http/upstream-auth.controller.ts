import { Controller, Get, Inject, Req, Res, VERSION_NEUTRAL, type Type } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import {
  MCP_UPSTREAM_USER_AUTH,
  USER_AUTH_ROUTE,
  type McpUpstreamUserAuthRoutes,
  type McpUserAuthReply,
} from '../../core/upstream-user-auth.port.js';
import { HiddenFromOpenApi } from './hidden-from-openapi.decorator.js';
import { nodeRequestOf, nodeResponseOf } from './http-exchange.js';

/** Path segment of an upstream name (the option's own pattern): anything else is no upstream of ours. */
const UPSTREAM_NAME = /^[a-z][a-z0-9-]{0,31}$/;

/**
 * The routes of per-user upstream authorization (`auth: { authorizationCode }` of an upstream), which the user's
 * browser opens: `GET /mcp-upstream-auth/<upstream>/start?ticket=` (the link a call answered) and
 * `GET /mcp-upstream-auth/<upstream>/callback` (the redirect URI). Mapped when an upstream uses it (or for forRootAsync).
 */
export function createUpstreamAuthController(): Type<unknown> {
  @HiddenFromOpenApi()
  @Controller({ path: USER_AUTH_ROUTE, version: VERSION_NEUTRAL })
  class McpUpstreamAuthController {
    constructor(@Inject(MCP_UPSTREAM_USER_AUTH) private readonly upstreams: McpUpstreamUserAuthRoutes) {}

    @Get(':upstream/start')
    start(@Req() request: unknown, @Res() response: unknown): Promise<void> {
      return this.run(request, response, 'start');
    }

    @Get(':upstream/callback')
    callback(@Req() request: unknown, @Res() response: unknown): Promise<void> {
      return this.run(request, response, 'callback');
    }

    private async run(adapterRequest: unknown, adapterResponse: unknown, step: 'start' | 'callback'): Promise<void> {
      const request = nodeRequestOf(adapterRequest);
      const response = nodeResponseOf(adapterResponse);
      const path = (request as { originalUrl?: string }).originalUrl ?? request.url ?? '/';
      const url = new URL(path, 'http://localhost');
      const name = /\/([^/]+)\/(?:start|callback)$/.exec(url.pathname)?.[1] ?? '';
      const known = UPSTREAM_NAME.test(name);
      const reply = known
        ? step === 'start'
          ? this.upstreams.start(name, url.searchParams.get('ticket'))
          : this.upstreams.callback(name, url)
        : undefined;
      if (!reply) return write(response, { status: 404, page: 'No such upstream connection.' });
      try {
        write(response, await reply);
      } catch {
        // The store or the authorization server down, most likely: nothing of the cause in the page.
        write(response, { status: 503, page: 'Temporarily unavailable: try again in a moment.' });
      }
    }
  }
  return McpUpstreamAuthController;
}

/** A redirect, or a small text page: no token, code or ticket is ever echoed. */
function write(response: ServerResponse, reply: McpUserAuthReply): void {
  const headers = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' };
  if ('redirect' in reply) {
    response.writeHead(302, { ...headers, Location: reply.redirect });
    response.end();
    return;
  }
  response.writeHead(reply.status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
  response.end(reply.page);
}
