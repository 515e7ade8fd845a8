import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { McpBootNotices } from '../../core/boot-notices.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import { McpGlobalPrefix } from '../../options/mcp-global-prefix.js';
import { McpAuthService } from '../../auth/mcp-auth.service.js';
import { authenticateRequest } from './auth/mcp-auth.guard.js';
import { McpHttpRefusal } from './auth/mcp-http-refusal.exception.js';
import { sendRefusalOf } from './auth/mcp-http-refusal.filter.js';
import { boundBodyTime } from './body-deadline.js';
import { requestPathOf } from './http-exchange.js';
import { McpOriginGuard } from './origin.guard.js';

/** The part of a Fastify instance this needs (the library does not depend on Fastify's types). */
interface FastifyHooks {
  readonly initialConfig?: { bodyLimit?: number };
  addHook(
    name: 'onRequest',
    hook: (request: { raw: IncomingMessage }, reply: { raw: ServerResponse; hijack(): void }, done: (error?: Error) => void) => void,
  ): void;
}

/**
 * Fastify parses a body before any Nest guard runs, so a POST without valid credentials would be buffered first. For
 * the MCP POST routes this `onRequest` hook bounds the body's time, checks Host and Origin and authenticates (401 at
 * once, as on express) before the body is read; the guards then skip what was checked. Fastify parses every JSON body
 * under its own `bodyLimit`: a larger `http.maxBodyBytes` is never reached, which is said at boot.
 */
@Injectable()
export class McpFastifyEarlyChecks implements OnApplicationBootstrap {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly auth: McpAuthService,
    private readonly origin: McpOriginGuard,
    private readonly globalPrefix: McpGlobalPrefix,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
    private readonly notices: McpBootNotices,
  ) {}

  onApplicationBootstrap(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (adapter?.getType() !== 'fastify') return;
    const fastify = adapter.getInstance() as FastifyHooks;
    const { path, messagesPath } = this.options;
    const { maxBodyBytes } = this.options.http;
    const bodyLimit = fastify.initialConfig?.bodyLimit;
    if (bodyLimit !== undefined && bodyLimit < maxBodyBytes)
      this.notices.warn(
        'McpModule',
        `${path}: http.maxBodyBytes is ${maxBodyBytes} but Fastify's bodyLimit is ${bodyLimit}, so MCP bodies over ${bodyLimit} bytes get 413; ` +
          `raise it with new FastifyAdapter({ bodyLimit: ${maxBodyBytes} })`,
      );
    const postPaths = new Set([`${this.globalPrefix.of(path)}${path}`, `${this.globalPrefix.of(messagesPath)}${messagesPath}`]);
    fastify.addHook('onRequest', (request, reply, done) => {
      const raw = request.raw;
      if (raw.method !== 'POST' || !postPaths.has(requestPathOf(raw))) return done();
      boundBodyTime(raw, reply.raw, this.options.limits.bodyTimeoutMs);
      const refuse = (error: unknown) => {
        if (!(error instanceof McpHttpRefusal)) return done(error instanceof Error ? error : new Error(String(error)));
        // Answered here, before the body is read: Fastify must not send anything itself.
        reply.hijack();
        sendRefusalOf(reply.raw, error);
      };
      // The guards' order: Host and Origin first (403), then the credentials (401).
      try {
        this.origin.checkEarly(raw);
      } catch (error) {
        return refuse(error);
      }
      if (!this.auth.enabled) return done();
      authenticateRequest(this.auth, raw, this.options.http.trustProxy).then(() => done(), refuse);
    });
  }
}
