import { ArgumentsHost, Catch, HttpException, Inject } from '@nestjs/common';
import { BaseExceptionFilter, DiscoveryService } from '@nestjs/core';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import { parseErrorResponse } from '../../core/json-rpc/json-rpc.codec.js';
import { nodeRequestOf, nodeResponseOf, requestPathOf } from './http-exchange.js';
import { sendJson, sendRefusal } from './http-json-rpc.responses.js';

/** The failures of an application-wide body parser this filter answers, by the HTTP status the adapter gave them. */
const PARSER_STATUSES = new Set([400, 413, 415]);

/**
 * An application-wide body parser fails a bad body before our route runs: for MCP POST endpoints this gives the
 * answers the endpoint gives itself (-32700 at 400, 413, 415), the same on either adapter; the rest goes to Nest.
 */
@Catch()
export class McpBodyParserErrorFilter extends BaseExceptionFilter {
  private postPaths?: readonly string[];

  constructor(
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
    private readonly discovery: DiscoveryService,
  ) {
    super();
  }

  override catch(exception: unknown, host: ArgumentsHost): void {
    // Global filters also see exceptions thrown by tools (context 'mcp'): those belong to the tool runner. So do those
    // of a controller route called as a tool in an app without an HTTP server (stdio): there is no response to write.
    if (host.getType() !== 'http' || !(this.applicationRef ?? this.httpAdapterHost?.httpAdapter)) throw exception;
    if (!(exception instanceof HttpException)) {
      // A client that hung up mid-upload (Fastify's parser fails with ECONNRESET): nobody to answer, nothing to log.
      if (isClientAbort(exception) && this.isMcpPostPath(requestPathOf(nodeRequestOf(host.switchToHttp().getRequest<unknown>()))))
        return void nodeResponseOf(host.switchToHttp().getResponse()).destroy();
      return super.catch(exception, host);
    }
    const status = exception.getStatus();
    const adapterRequest = host.switchToHttp().getRequest<unknown>();
    if (PARSER_STATUSES.has(status) && isParserFailure(exception, adapterRequest)) {
      const request = nodeRequestOf(adapterRequest);
      if (request.method === 'POST' && this.isMcpPostPath(requestPathOf(request))) {
        const response = nodeResponseOf(host.switchToHttp().getResponse());
        if (response.headersSent) return void response.destroy();
        if (status === 413) return sendRefusal(response, 'PAYLOAD_TOO_LARGE');
        if (status === 415) return sendRefusal(response, 'UNSUPPORTED_MEDIA_TYPE', 'send Content-Type: application/json');
        return sendJson(response, 400, parseErrorResponse());
      }
    }
    super.catch(exception, host);
  }

  /** Every MCP server's POST paths: Nest hands an exception to the first global filter, maybe another server's. */
  private isMcpPostPath(path: string): boolean {
    if (!this.postPaths) {
      const servers = this.discovery
        .getProviders()
        .filter((wrapper) => wrapper.token === MCP_RESOLVED_OPTIONS && wrapper.instance)
        .map((wrapper) => wrapper.instance as McpResolvedOptions);
      this.postPaths = (servers.length ? servers : [this.options]).flatMap(({ path, messagesPath }) => [path, messagesPath]);
    }
    return this.postPaths.some((mcpPath) => path.endsWith(mcpPath));
  }
}

/** From the body parser, not a handler: Fastify's fails with `FST_ERR_CTP_*` (the cause); express's before any route matched. */
function isParserFailure(exception: HttpException, adapterRequest: unknown): boolean {
  const code = (exception.cause as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string') return code.startsWith('FST_ERR_CTP_');
  const request = adapterRequest as { raw?: unknown; route?: unknown };
  return request.raw === undefined && request.route === undefined;
}

/** An upload the client aborted: Node's `aborted` / `ECONNRESET` as a body parser reports it. */
function isClientAbort(exception: unknown): boolean {
  const { code, message } = ((typeof exception === 'object' && exception) || {}) as { code?: unknown; message?: unknown };
  return code === 'ECONNRESET' || code === 'ECONNABORTED' || message === 'aborted';
}
