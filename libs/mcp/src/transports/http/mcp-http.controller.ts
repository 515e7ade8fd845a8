import { Controller, Delete, Get, Post, Req, Res, UseFilters, UseGuards, type Type } from '@nestjs/common';
import { McpAuthGuard } from '../../auth/mcp-auth.guard.js';
import { McpHttpRefusalFilter } from '../../auth/mcp-http-refusal.filter.js';
import { McpOriginGuard } from './origin.guard.js';
import type { Request, Response } from 'express';
import type { McpResolvedPaths } from '../../mcp-options.resolver.js';
import { McpLegacySseTransport } from '../sse/legacy-sse.transport.js';
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
      readonly legacy: McpLegacySseTransport,
    ) {}

    @Post()
    async post(@Req() request: Request, @Res() response: Response): Promise<void> {
      await this.transport.handlePost(request, response);
    }

    /**
     * With a session: the session's stream. Without one and asking for SSE: legacy HTTP+SSE on the same URL, the
     * fallback the spec tells clients to try, so a client configured with only `/mcp` works in every mode.
     */
    @Get()
    async get(@Req() request: Request, @Res() response: Response): Promise<void> {
      if (await this.transport.handleGet(request, response)) return;
      if (paths.ssePath !== false && /text\/event-stream/i.test(request.headers.accept ?? '')) return this.legacy.open(request, response, paths.path);
      sendHttpError(response, 400, 'Bad Request: Mcp-Session-Id header required for a GET stream');
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
  class McpLegacySseController {
    constructor(readonly legacy: McpLegacySseTransport) {}

    @Get(ssePath)
    async open(@Req() request: Request, @Res() response: Response): Promise<void> {
      await this.legacy.open(request, response, ssePath);
    }

    @Post(paths.messagesPath)
    async message(@Req() request: Request, @Res() response: Response): Promise<void> {
      await this.legacy.post(request, response);
    }
  }
  return [McpHttpController, McpLegacySseController];
}
