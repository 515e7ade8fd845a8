import { Controller, Get, Inject, Res, UseFilters, UseGuards, type Type } from '@nestjs/common';
import type { Response } from 'express';
import { LATEST_PROTOCOL_VERSION } from '../../../core/protocol-revisions.js';
import { MCP_RESOLVED_OPTIONS } from '../../../mcp.module-definition.js';
import type { McpResolvedOptions } from '../../../options/mcp-module-options.interface.js';
import { McpHttpRefusalFilter } from '../auth/mcp-http-refusal.filter.js';
import { McpOriginGuard } from '../origin.guard.js';
import { renderExplorerPage, type McpExplorerPage } from './explorer.page.js';

/**
 * The explorer page's controller, a class per module instance like the endpoint's (its path is known only when the
 * module is defined). The page holds no data, so it needs no credentials: the calls it makes go through the endpoint
 * and its guards with the credentials typed into it. The Host check (`allowedHosts`) still applies.
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
  }
  return McpExplorerController;
}
