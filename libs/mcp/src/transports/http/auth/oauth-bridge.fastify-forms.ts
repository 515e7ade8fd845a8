import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { MCP_RESOLVED_OPTIONS } from '../../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../../options/mcp-module-options.interface.js';
import { MAX_BRIDGE_BODY_BYTES } from './oauth-bridge.controller.js';

const FORM = 'application/x-www-form-urlencoded';

/** The part of a Fastify instance this needs (the library does not depend on Fastify's types). */
interface FastifyParsers {
  hasContentTypeParser(type: string): boolean;
  addContentTypeParser(
    type: string,
    options: { parseAs: 'string'; bodyLimit: number },
    parser: (request: unknown, body: string, done: (error: Error | null, value?: unknown) => void) => void,
  ): void;
}

/**
 * The bridge's token, revocation and consent endpoints take HTML forms (RFC 6749 §3.2); Fastify answers 415 to a
 * form when the app has no parser for it (Nest registers one unless `bodyParser: false`). With `auth.bridge`, a
 * bounded one is added then, so both adapters serve the bridge alike.
 */
@Injectable()
export class McpOAuthBridgeFastifyForms implements OnApplicationBootstrap {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
  ) {}

  onApplicationBootstrap(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (!this.options.auth.bridge || adapter?.getType() !== 'fastify') return;
    const fastify = adapter.getInstance() as FastifyParsers;
    if (fastify.hasContentTypeParser(FORM)) return;
    fastify.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: MAX_BRIDGE_BODY_BYTES }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(body))),
    );
  }
}
