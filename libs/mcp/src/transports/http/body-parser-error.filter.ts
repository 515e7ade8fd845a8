import { ArgumentsHost, BadRequestException, Catch, Inject, PayloadTooLargeException } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import type { Request, Response } from 'express';
import { MCP_RESOLVED_OPTIONS } from '../../mcp.module-definition.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import { parseErrorResponse } from '../../core/json-rpc/json-rpc.codec.js';
import { sendJson, sendRefusal } from './http-json-rpc.responses.js';

/**
 * When the application keeps Nest's JSON body parser, a malformed or oversized body fails before our route
 * runs. For MCP endpoints this turns those failures into JSON-RPC answers (-32700, 413); everything else goes
 * to Nest's default handling untouched.
 */
@Catch(BadRequestException, PayloadTooLargeException)
export class McpBodyParserErrorFilter extends BaseExceptionFilter {
  constructor(@Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions) {
    super();
  }

  override catch(exception: BadRequestException | PayloadTooLargeException, host: ArgumentsHost): void {
    // Global filters also see exceptions thrown by tools (context 'mcp'): those belong to the tool runner.
    if (host.getType() !== 'http') throw exception;
    {
      const request = host.switchToHttp().getRequest<Request>();
      const response = host.switchToHttp().getResponse<Response>();
      // No matched route means the failure came from a parser middleware, not from a handler.
      if (!request.route && request.method === 'POST' && this.isMcpPath(request.path) && !response.headersSent) {
        if (exception instanceof PayloadTooLargeException) return sendRefusal(response, 'PAYLOAD_TOO_LARGE');
        return sendJson(response, 400, parseErrorResponse());
      }
    }
    super.catch(exception, host);
  }

  private isMcpPath(path: string): boolean {
    return path === this.options.path || path.endsWith(this.options.path);
  }
}
