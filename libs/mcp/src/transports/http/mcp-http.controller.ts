import { Controller, Delete, Get, Param, Post, Req, Res, UseFilters, UseGuards, type Type } from '@nestjs/common';
import { McpJobService } from '../../jobs/mcp-job.service.js';
import { DEFAULT_TENANT } from '../../execution/tool-context.factory.js';
import { principalOf } from './request-principal.js';
import { McpAuthGuard } from './auth/mcp-auth.guard.js';
import { McpHttpRefusalFilter } from './auth/mcp-http-refusal.filter.js';
import { McpOriginGuard } from './origin.guard.js';
import type { Request, Response } from 'express';
import type { McpResolvedPaths } from '../../options/mcp-options.resolver.js';
import { McpHttpSseTransport } from '../sse/http-sse-2024-11-05.transport.js';
import { sendHttpError } from './http-json-rpc.responses.js';
import { McpHttpTransport } from './mcp-http.transport.js';

/**
 * Builds the controllers of one module instance: a class per instance, because the paths are only known when
 * the module is defined and decorators must not be re-applied to a shared class.
 */
export function createMcpControllers(paths: McpResolvedPaths): Type<unknown>[] {
  @Controller(paths.path)
  @UseGuards(McpOriginGuard, McpAuthGuard)
  @UseFilters(McpHttpRefusalFilter)
  class McpHttpController {
    constructor(
      readonly transport: McpHttpTransport,
      readonly sse: McpHttpSseTransport,
      readonly jobs: McpJobService,
    ) {}

    @Post()
    async post(@Req() request: Request, @Res() response: Response): Promise<void> {
      await this.transport.handlePost(request, response);
    }

    /**
     * With a session: the session's stream. Without one and asking for SSE: HTTP+SSE (2024-11-05) on the same URL, the
     * fallback the spec tells clients to try, so a client configured with only `/mcp` works in every mode.
     */
    @Get()
    async get(@Req() request: Request, @Res() response: Response): Promise<void> {
      if (await this.transport.handleGet(request, response)) return;
      if (paths.ssePath !== false && /text\/event-stream/i.test(request.headers.accept ?? ''))
        return this.sse.open(request, response, paths.path);
      sendHttpError(response, 400, 'Bad Request: Mcp-Session-Id header required for a GET stream');
    }

    /** `poll_url` of a job: the same JSON `get_job_status` returns, behind the same guards. */
    @Get('jobs/:jobId')
    async job(@Param('jobId') jobId: string, @Req() request: Request, @Res() response: Response): Promise<void> {
      const record = await this.jobs.find(principalOf(request)?.tenant ?? DEFAULT_TENANT, jobId);
      if (!record)
        return sendHttpError(response, 404, 'Job not found', {
          data: { status: 'error', error: { code: 'JOB_NOT_FOUND', message: 'Job not found', retryable: false } },
        });
      response.setHeader('Cache-Control', 'no-store');
      response.json(this.jobs.statusEnvelope(record));
    }

    @Delete()
    async delete(@Req() request: Request, @Res() response: Response): Promise<void> {
      await this.transport.handleDelete(request, response);
    }
  }

  if (paths.ssePath === false) return [McpHttpController];
  const ssePath = paths.ssePath;

  @Controller()
  @UseGuards(McpOriginGuard, McpAuthGuard)
  @UseFilters(McpHttpRefusalFilter)
  class McpHttpSseController {
    constructor(readonly sse: McpHttpSseTransport) {}

    @Get(ssePath)
    async open(@Req() request: Request, @Res() response: Response): Promise<void> {
      await this.sse.open(request, response, ssePath);
    }

    @Post(paths.messagesPath)
    async message(@Req() request: Request, @Res() response: Response): Promise<void> {
      await this.sse.post(request, response);
    }
  }
  return [McpHttpController, McpHttpSseController];
}
