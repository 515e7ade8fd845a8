import { Controller, Get, Inject, Optional, Res, VERSION_NEUTRAL, type Type } from '@nestjs/common';
import { McpGlobalPrefix } from '../../../options/mcp-global-prefix.js';
import { nodeResponseOf } from '../http-exchange.js';
import { MCP_RESOLVED_OPTIONS } from '../../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../../options/mcp-module-options.interface.js';
import { sendHttpError, sendJson } from '../http-json-rpc.responses.js';
import { HiddenFromOpenApi } from '../hidden-from-openapi.decorator.js';
import { MCP_TOOL_SCOPES, type McpToolScopesSource } from '../../../core/tool-scopes.port.js';

/**
 * RFC 9728 metadata at the root and path-specific well-known URLs (clients try both); mapped when auth configures it
 * (forRoot) or may (forRootAsync: 404 until configured).
 */
export function createProtectedResourceController(mcpPath: string, root = true): Type<unknown> {
  @HiddenFromOpenApi()
  @Controller({ path: '.well-known/oauth-protected-resource', version: VERSION_NEUTRAL })
  class McpProtectedResourceController {
    private document?: Record<string, unknown>;

    constructor(
      @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
      private readonly globalPrefix: McpGlobalPrefix,
      @Optional() @Inject(MCP_TOOL_SCOPES) private readonly toolScopes?: McpToolScopesSource,
    ) {}

    /**
     * Built at the first request, once the app's global prefix (which `resource` carries) is settled; without
     * configured `scopesSupported`, the tools' scopes are read at each request (tools change at runtime).
     */
    private build(): Record<string, unknown> | undefined {
      const metadata = this.options.auth.resourceMetadata;
      if (!metadata) return undefined;
      return {
        resource: this.globalPrefix.resource(metadata.resource, mcpPath),
        authorization_servers: metadata.authorizationServers,
        ...(metadata.scopesSupported && { scopes_supported: metadata.scopesSupported }),
        bearer_methods_supported: ['header'],
        ...(metadata.resourceName && { resource_name: metadata.resourceName }),
      };
    }

    // The host-level document only where this server keeps `wellKnownRoot` (one server of an app may).
    @Get(root ? ['/', mcpPath] : mcpPath)
    forPath(@Res() adapterResponse: unknown): void {
      const response = nodeResponseOf(adapterResponse);
      this.document ??= this.build();
      if (!this.document) return sendHttpError(response, 404, 'No protected resource metadata is configured');
      const scopes = this.document.scopes_supported ? [] : (this.toolScopes?.() ?? []);
      sendJson(response, 200, scopes.length > 0 ? { ...this.document, scopes_supported: scopes } : this.document);
    }
  }
  return McpProtectedResourceController;
}
