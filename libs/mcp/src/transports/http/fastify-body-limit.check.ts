import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { McpBootNotices } from '../../core/boot-notices.js';
import { HttpAdapterHost } from '@nestjs/core';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';

/** Fastify parses every JSON body under its own `bodyLimit`: a larger `http.maxBodyBytes` is never reached. Said at boot. */
@Injectable()
export class McpFastifyBodyLimitCheck implements OnApplicationBootstrap {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
    private readonly notices: McpBootNotices,
  ) {}

  onApplicationBootstrap(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (adapter?.getType() !== 'fastify') return;
    const bodyLimit = (adapter.getInstance() as { initialConfig?: { bodyLimit?: number } }).initialConfig?.bodyLimit;
    const { path } = this.options;
    const { maxBodyBytes } = this.options.http;
    if (bodyLimit === undefined || bodyLimit >= maxBodyBytes) return;
    this.notices.warn(
      'McpModule',
      `${path}: http.maxBodyBytes is ${maxBodyBytes} but Fastify's bodyLimit is ${bodyLimit}, so MCP bodies over ${bodyLimit} bytes get 413; ` +
        `raise it with new FastifyAdapter({ bodyLimit: ${maxBodyBytes} })`,
    );
  }
}
