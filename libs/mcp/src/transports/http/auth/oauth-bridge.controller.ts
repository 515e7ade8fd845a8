import { Controller, Get, Inject, Post, Req, Res, VERSION_NEUTRAL, type Type } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpOAuthBridgeHost } from '../../../auth/bridge/oauth-bridge.host.js';
import type { McpOAuthBridge } from '../../../auth/bridge/oauth-bridge.js';
import type { BridgeReply, BridgeRequest } from '../../../auth/bridge/bridge-reply.js';
import { nodeRequestOf, nodeResponseOf, parsedBodyOf } from '../http-exchange.js';
import { sendHttpError } from '../http-json-rpc.responses.js';
import { HiddenFromOpenApi } from '../hidden-from-openapi.decorator.js';
import { readRaw } from '../request-body.reader.js';
import { clientAddressOf } from '../../../core/mcp-caller.js';
import { MCP_RESOLVED_OPTIONS } from '../../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../../options/mcp-module-options.interface.js';

/** Largest form or registration body the bridge reads. */
export const MAX_BRIDGE_BODY_BYTES = 16 * 1024;

type Step = (bridge: McpOAuthBridge, request: BridgeRequest) => BridgeReply | Promise<BridgeReply>;

/**
 * The authorization-server bridge's routes (`auth.bridge`): RFC 8414 metadata and the `/oauth/*` endpoints, at the
 * host's root. Mapped only when `forRoot` has `auth.bridge` or `forRootAsync` asks (`authBridgeRoutes`).
 */
export function createOAuthBridgeController(): Type<unknown> {
  @HiddenFromOpenApi()
  @Controller({ version: VERSION_NEUTRAL })
  class McpOAuthBridgeController {
    constructor(
      private readonly host: McpOAuthBridgeHost,
      @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
    ) {}

    @Get('.well-known/oauth-authorization-server')
    metadata(@Req() request: unknown, @Res() response: unknown): Promise<void> {
      return this.run(request, response, (bridge) => bridge.metadata());
    }

    @Post('oauth/register')
    register(@Req() request: unknown, @Res() response: unknown): Promise<void> {
      return this.run(request, response, (bridge, input) => bridge.register(input));
    }

    @Get('oauth/authorize')
    authorize(@Req() request: unknown, @Res() response: unknown): Promise<void> {
      return this.run(request, response, (bridge, input) => bridge.authorize(input));
    }

    @Get('oauth/callback')
    callback(@Req() request: unknown, @Res() response: unknown): Promise<void> {
      return this.run(request, response, (bridge, input) => bridge.callback(input));
    }

    @Get('oauth/consent')
    consent(@Req() request: unknown, @Res() response: unknown): Promise<void> {
      return this.run(request, response, (bridge, input) => bridge.consent(input));
    }

    @Post('oauth/consent')
    decide(@Req() request: unknown, @Res() response: unknown): Promise<void> {
      return this.run(request, response, (bridge, input) => bridge.decide(input));
    }

    @Post('oauth/token')
    token(@Req() request: unknown, @Res() response: unknown): Promise<void> {
      return this.run(request, response, (bridge, input) => bridge.token(input));
    }

    @Post('oauth/revoke')
    revoke(@Req() request: unknown, @Res() response: unknown): Promise<void> {
      return this.run(request, response, (bridge, input) => bridge.revoke(input));
    }

    private async run(adapterRequest: unknown, adapterResponse: unknown, step: Step): Promise<void> {
      const request = nodeRequestOf(adapterRequest);
      const response = nodeResponseOf(adapterResponse);
      const bridge = this.host.bridge;
      if (!bridge) return sendHttpError(response, 404, 'No authorization server is served here');
      const form = request.method === 'POST' ? await readForm(request) : {};
      if (form === undefined)
        return write(response, {
          status: 400,
          headers: { 'Content-Type': 'application/json' },
          body: '{"error":"invalid_request","error_description":"unreadable or too large body"}',
        });
      const url = (request as { originalUrl?: string }).originalUrl ?? request.url ?? '/';
      const query = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
      try {
        const address = clientAddressOf(request, this.options.http.trustProxy);
        write(response, await step(bridge, { query, form, cookies: cookiesOf(request), address }));
      } catch {
        // The store down, most likely: retryable, and nothing of the cause in the answer.
        write(response, {
          status: 503,
          headers: { 'Content-Type': 'application/json', 'Retry-After': '5' },
          body: '{"error":"temporarily_unavailable"}',
        });
      }
    }
  }
  return McpOAuthBridgeController;
}

function write(response: ServerResponse, reply: BridgeReply): void {
  response.writeHead(reply.status, reply.headers);
  response.end(reply.body);
}

/** A form or JSON body, read here under a bound when no application-wide parser did. */
async function readForm(request: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_BRIDGE_BODY_BYTES) return undefined;
  const json = (request.headers['content-type'] ?? '').toLowerCase().startsWith('application/json');
  let value: unknown;
  if (request.readableEnded) value = parsedBodyOf(request);
  else {
    const raw = await readRaw(request, MAX_BRIDGE_BODY_BYTES);
    if (typeof raw === 'string') return undefined;
    try {
      value = json ? JSON.parse(raw.toString('utf8')) : Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
    } catch {
      return undefined;
    }
  }
  if (value === undefined) return {};
  return value && typeof value === 'object' && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : undefined;
}

function cookiesOf(request: IncomingMessage): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const pair of (request.headers.cookie ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0) cookies[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return cookies;
}
