import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { McpHttpRefusal } from '../../auth/mcp-http-refusal.exception.js';
import { MCP_RESOLVED_OPTIONS } from '../../mcp.module-definition.js';
import type { McpResolvedOptions } from '../../interfaces/mcp-module-options.interface.js';

const LOCAL_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * DNS-rebinding protection (spec: servers MUST validate Origin): a request carrying an `Origin` that is neither
 * local nor in `allowedOrigins` gets 403. Requests without `Origin` (non-browser clients) pass.
 */
@Injectable()
export class McpOriginGuard implements CanActivate {
  private readonly allowed: Set<string>;
  private readonly allowAll: boolean;

  constructor(@Inject(MCP_RESOLVED_OPTIONS) options: McpResolvedOptions) {
    this.allowAll = options.allowedOrigins.includes('*');
    this.allowed = new Set(options.allowedOrigins.map((origin) => origin.replace(/\/+$/, '').toLowerCase()));
  }

  canActivate(context: ExecutionContext): boolean {
    const origin = context.switchToHttp().getRequest<Request>().headers.origin;
    if (origin === undefined || this.allowAll || this.isAllowed(origin)) return true;
    throw new McpHttpRefusal(403, 'FORBIDDEN', 'Forbidden: this Origin is not allowed');
  }

  private isAllowed(origin: string): boolean {
    if (this.allowed.has(origin.toLowerCase())) return true;
    try {
      const url = new URL(origin);
      return (url.protocol === 'http:' || url.protocol === 'https:') && LOCAL_HOSTNAMES.has(url.hostname);
    } catch {
      return false;
    }
  }
}
