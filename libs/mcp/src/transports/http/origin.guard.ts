import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { nodeRequestOf } from './http-exchange.js';
import { McpHttpRefusal } from './auth/mcp-http-refusal.exception.js';
import { MCP_ERROR_CODES } from '../../core/errors/error-codes.js';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';

/** `example.com:8080` → `example.com`, `[::1]:3000` → `[::1]`. */
function hostnameOf(host: string | undefined): string {
  if (!host) return '';
  const value = host.trim().toLowerCase();
  return value.startsWith('[') ? value.slice(0, value.indexOf(']') + 1) : value.split(':')[0];
}

const LOCAL_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Requests Fastify's early hook checked, for every instance; a WeakSet: a mark on the request would change its shape. */
const CHECKED_EARLY = new WeakSet<IncomingMessage>();

/** DNS-rebinding protection (spec: servers MUST validate Origin): an `Origin` neither local nor allowed gets 403. */
@Injectable()
export class McpOriginGuard implements CanActivate {
  private readonly allowed: Set<string>;
  private readonly allowAll: boolean;
  private readonly hosts?: Set<string>;

  constructor(@Inject(MCP_RESOLVED_OPTIONS) options: McpResolvedOptions) {
    if (options.http.allowedHosts) this.hosts = new Set(options.http.allowedHosts);
    this.allowAll = options.http.allowedOrigins.includes('*');
    this.allowed = new Set(options.http.allowedOrigins.map((origin) => origin.replace(/\/+$/, '').toLowerCase()));
  }

  canActivate(context: ExecutionContext): boolean {
    const request = nodeRequestOf(context.switchToHttp().getRequest());
    // Checked already by Fastify's onRequest hook (McpFastifyEarlyChecks): not twice.
    if (!CHECKED_EARLY.has(request)) this.check(request);
    return true;
  }

  /** Fastify's early hook: {@link check} before the body is read, remembered so the guard does not check again. */
  checkEarly(request: IncomingMessage): void {
    this.check(request);
    CHECKED_EARLY.add(request);
  }

  /** Throws the 403 refusal for a Host or Origin this server does not serve. */
  check(request: IncomingMessage): void {
    const { origin, host } = request.headers;
    if (this.hosts && !this.hosts.has(hostnameOf(host)))
      throw new McpHttpRefusal('FORBIDDEN', MCP_ERROR_CODES.FORBIDDEN.message('this Host is not allowed'));
    if (origin !== undefined && !this.allowAll && !this.isAllowed(origin))
      throw new McpHttpRefusal('FORBIDDEN', MCP_ERROR_CODES.FORBIDDEN.message('this Origin is not allowed'));
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
