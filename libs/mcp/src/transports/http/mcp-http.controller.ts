import { Controller, Delete, Get, Param, Post, Req, Res, UseFilters, UseGuards, VERSION_NEUTRAL, type Type } from '@nestjs/common';
import { McpJobService } from '../../jobs/mcp-job.service.js';
import { principalOf } from './request-principal.js';
import { McpAuthGuard } from './auth/mcp-auth.guard.js';
import { McpHttpRefusalFilter } from './auth/mcp-http-refusal.filter.js';
import { McpOriginGuard } from './origin.guard.js';
import { nodeRequestOf, nodeResponseOf } from './http-exchange.js';
import type { McpResolvedPaths } from '../../options/mcp-options.resolver.js';
import { McpHttpSseTransport } from '../sse/http-sse.transport.js';
import { sendHttpError, sendJson, sendRestError } from './http-json-rpc.responses.js';
import { clientText } from '../../core/client-text.js';
import { McpHttpTransport } from './mcp-http.transport.js';
import { tenantOf } from '../../core/tenant.js';
import { HiddenFromOpenApi } from './hidden-from-openapi.decorator.js';

/**
 * The controllers of one module instance: a class per instance, since the paths are known only when the module is
 * defined. `VERSION_NEUTRAL`: URI versioning is the app's API version, an MCP endpoint's is the revision it negotiates.
 */
export function createMcpControllers(paths: McpResolvedPaths): Type<unknown>[] {
  @HiddenFromOpenApi()
  @Controller({ path: paths.path, version: VERSION_NEUTRAL })
  @UseGuards(McpOriginGuard, McpAuthGuard)
  @UseFilters(McpHttpRefusalFilter)
  class McpHttpController {
    constructor(
      readonly transport: McpHttpTransport,
      readonly sse: McpHttpSseTransport,
      readonly jobs: McpJobService,
    ) {}

    @Post()
    async post(@Req() request: unknown, @Res() response: unknown): Promise<void> {
      await this.transport.handlePost(nodeRequestOf(request), nodeResponseOf(response));
    }

    /** Without a session and asking for SSE: the legacy HTTP+SSE on the same URL, the fallback the spec tells clients to try. */
    @Get()
    async get(@Req() adapterRequest: unknown, @Res() adapterResponse: unknown): Promise<void> {
      const request = nodeRequestOf(adapterRequest);
      const response = nodeResponseOf(adapterResponse);
      await this.transport.handleGet(request, response, () => {
        if (paths.ssePath !== false && /text\/event-stream/i.test(request.headers.accept ?? '')) return this.sse.open(request, response);
        sendHttpError(response, 400, 'Bad Request: Mcp-Session-Id header required for a GET stream');
      });
    }

    /** `poll_url` of a job: the same JSON `get_job_status` returns, behind the same guards. */
    @Get('jobs/:jobId')
    async job(@Param('jobId') jobId: string, @Req() request: unknown, @Res() adapterResponse: unknown): Promise<void> {
      const record = await this.jobs.find(tenantOf(principalOf(nodeRequestOf(request))), jobId);
      const response = nodeResponseOf(adapterResponse);
      // Another tenant's job reads as missing too (no existence leak).
      if (!record) return sendRestError(response, 404, 'JOB_NOT_FOUND', `No job "${clientText(jobId)}" for this caller`);
      sendJson(response, 200, this.jobs.statusEnvelope(record), { 'Cache-Control': 'no-store' });
    }

    @Delete()
    async delete(@Req() request: unknown, @Res() response: unknown): Promise<void> {
      await this.transport.handleDelete(nodeRequestOf(request), nodeResponseOf(response));
    }
  }

  if (paths.ssePath === false) return [McpHttpController];
  const ssePath = paths.ssePath;

  @HiddenFromOpenApi()
  @Controller({ version: VERSION_NEUTRAL })
  @UseGuards(McpOriginGuard, McpAuthGuard)
  @UseFilters(McpHttpRefusalFilter)
  class McpHttpSseController {
    constructor(readonly sse: McpHttpSseTransport) {}

    @Get(ssePath)
    async open(@Req() request: unknown, @Res() response: unknown): Promise<void> {
      await this.sse.open(nodeRequestOf(request), nodeResponseOf(response));
    }

    @Post(paths.messagesPath)
    async message(@Req() request: unknown, @Res() response: unknown): Promise<void> {
      await this.sse.post(nodeRequestOf(request), nodeResponseOf(response));
    }
  }
  return [McpHttpController, McpHttpSseController];
}
