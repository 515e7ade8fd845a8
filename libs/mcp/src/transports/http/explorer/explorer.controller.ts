import { Controller, Get, Inject, Query, Res, UseFilters, UseGuards, VERSION_NEUTRAL, type Type } from '@nestjs/common';
import { LATEST_PROTOCOL_VERSION } from '../../../core/protocol-revisions.js';
import { MCP_RESOLVED_OPTIONS } from '../../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../../options/mcp-module-options.interface.js';
import { McpHttpRefusalFilter } from '../auth/mcp-http-refusal.filter.js';
import { McpGlobalPrefix } from '../../../options/mcp-global-prefix.js';
import { nodeResponseOf } from '../http-exchange.js';
import { sendBody } from '../http-json-rpc.responses.js';
import { McpOriginGuard } from '../origin.guard.js';
import { APP_FRAME_HTML, appFrameContentSecurityPolicy, appFrameHeaders, parseAppFrameCsp } from './explorer-app-frame.js';
import { renderExplorerPage, type McpExplorerPage } from './explorer.page.js';
import { HiddenFromOpenApi } from '../hidden-from-openapi.decorator.js';

/** The explorer page and its `app-frame`: no data, so no credentials (the page's calls go through the endpoint's guards). */
export function createMcpExplorerController(explorerPath: string, endpointPath: string): Type<unknown> {
  @HiddenFromOpenApi()
  @Controller({ path: explorerPath, version: VERSION_NEUTRAL })
  @UseGuards(McpOriginGuard)
  @UseFilters(McpHttpRefusalFilter)
  class McpExplorerController {
    private page?: McpExplorerPage;

    constructor(
      @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
      private readonly globalPrefix: McpGlobalPrefix,
    ) {}

    @Get()
    show(@Res() response: unknown): void {
      // At the first request: the global prefix the page's links carry is settled by then.
      const page = (this.page ??= renderExplorerPage({
        title: this.options.title ?? this.options.name,
        version: this.options.version,
        explorerPath: `${this.globalPrefix.of(explorerPath)}${explorerPath}`,
        endpointPath: `${this.globalPrefix.of(endpointPath)}${endpointPath}`,
        protocolVersion: LATEST_PROTOCOL_VERSION,
      }));
      sendBody(nodeResponseOf(response), 200, page.headers, page.html);
    }

    @Get('app-frame')
    appFrame(@Query('csp') raw: unknown, @Res() response: unknown): void {
      const csp = parseAppFrameCsp(raw);
      if (typeof csp === 'string')
        return sendBody(nodeResponseOf(response), 400, { 'Content-Type': 'text/plain; charset=utf-8' }, `Bad app frame: ${csp}`);
      sendBody(nodeResponseOf(response), 200, appFrameHeaders(appFrameContentSecurityPolicy(csp)), APP_FRAME_HTML);
    }
  }
  return McpExplorerController;
}
