import { Controller, Get, Inject, Query, Res, UseFilters, UseGuards, type Type } from '@nestjs/common';
import type { Response } from 'express';
import { LATEST_PROTOCOL_VERSION } from '../../../core/protocol-revisions.js';
import { MCP_RESOLVED_OPTIONS } from '../../../mcp.module-definition.js';
import type { McpResolvedOptions } from '../../../options/mcp-module-options.interface.js';
import { McpHttpRefusalFilter } from '../auth/mcp-http-refusal.filter.js';
import { McpOriginGuard } from '../origin.guard.js';
import { APP_FRAME_HTML, appFrameContentSecurityPolicy, appFrameHeaders, parseAppFrameCsp } from './explorer-app-frame.js';
import { renderExplorerPage, type McpExplorerPage } from './explorer.page.js';

/**
 * The explorer page's controller, a class per module instance like the endpoint's (its path is known only when the
 * module is defined). The page holds no data, so it needs no credentials: the calls it makes go through the endpoint
 * and its guards with the credentials typed into it. The Host check (`allowedHosts`) still applies. `app-frame` is the
 * sandbox proxy MCP Apps render in (see explorer-app-frame.ts): no data either, only a policy built from `?csp=`.
 */
export function createMcpExplorerController(explorerPath: string, endpointPath: string): Type<unknown> {
  @Controller(explorerPath)
  @UseGuards(McpOriginGuard)
  @UseFilters(McpHttpRefusalFilter)
  class McpExplorerController {
    private readonly page: McpExplorerPage;

    constructor(@Inject(MCP_RESOLVED_OPTIONS) options: McpResolvedOptions) {
      this.page = renderExplorerPage({
        title: options.title ?? options.name,
        version: options.version,
        explorerPath,
        endpointPath,
        protocolVersion: LATEST_PROTOCOL_VERSION,
      });
    }

    @Get()
    show(@Res() response: Response): void {
      response.set(this.page.headers).send(this.page.html);
    }

    @Get('app-frame')
    appFrame(@Query('csp') raw: unknown, @Res() response: Response): void {
      const csp = parseAppFrameCsp(raw);
      if (typeof csp === 'string') {
        response.status(400).type('text/plain').send(`Bad app frame: ${csp}`);
        return;
      }
      response.set(appFrameHeaders(appFrameContentSecurityPolicy(csp))).send(APP_FRAME_HTML);
    }
  }
  return McpExplorerController;
}
