import { Controller, Get, Inject, Res, type Type } from '@nestjs/common';
import type { Response } from 'express';
import { MCP_RESOLVED_OPTIONS } from '../../../mcp.module-definition.js';
import type { McpResolvedOptions } from '../../../options/mcp-module-options.interface.js';
import { sendHttpError } from '../http-json-rpc.responses.js';

/**
 * RFC 9728 metadata at the root and at the path-specific well-known URL (clients try both, spec 2025-11-25).
 * Always routed (the options may arrive asynchronously); 404 until `auth.resourceMetadata` is configured.
 */
export function createProtectedResourceController(mcpPath: string): Type<unknown> {
  @Controller('.well-known/oauth-protected-resource')
  class McpProtectedResourceController {
    private readonly document?: Record<string, unknown>;

    constructor(@Inject(MCP_RESOLVED_OPTIONS) options: McpResolvedOptions) {
      const metadata = options.auth.resourceMetadata;
      if (!metadata) return;
      this.document = {
        resource: metadata.resource,
        authorization_servers: metadata.authorizationServers,
        ...(metadata.scopesSupported && { scopes_supported: metadata.scopesSupported }),
        bearer_methods_supported: ['header'],
        ...(metadata.resourceName && { resource_name: metadata.resourceName }),
      };
    }

    @Get()
    root(@Res() response: Response): void {
      this.send(response);
    }

    @Get(mcpPath)
    forPath(@Res() response: Response): void {
      this.send(response);
    }

    private send(response: Response): void {
      if (!this.document) return sendHttpError(response, 404, 'No protected resource metadata is configured');
      response.json(this.document);
    }
  }
  return McpProtectedResourceController;
}
