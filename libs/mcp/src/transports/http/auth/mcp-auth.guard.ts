import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { nodeRequestOf } from '../http-exchange.js';
import { MCP_PRINCIPAL_REQUEST_KEY } from '../request-principal.js';
import { credentialsOf } from './http-credentials.js';
import { McpAuthError } from '../../../auth/mcp-auth.error.js';
import { McpAuthService } from '../../../auth/mcp-auth.service.js';
import { McpAuthUnavailableError } from '../../../auth/mcp-auth-unavailable.error.js';
import { McpHttpRefusal } from './mcp-http-refusal.exception.js';
import { McpAuthThrottledError } from '../../../auth/mcp-auth-throttled.error.js';
import { MCP_RESOLVED_OPTIONS } from '../../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../../options/mcp-module-options.interface.js';

/** Authenticates every MCP request on its own (a session id is never a credential); the principal goes on Node's request. */
@Injectable()
export class McpAuthGuard implements CanActivate {
  constructor(
    private readonly auth: McpAuthService,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    // Synchronous when authentication is off: no await hop on the hot path.
    if (!this.auth.enabled) return true;
    const request = nodeRequestOf(context.switchToHttp().getRequest());
    // Already authenticated before its body was read (Fastify's onRequest hook, McpFastifyEarlyChecks).
    if (MCP_PRINCIPAL_REQUEST_KEY in request) return true;
    return authenticateRequest(this.auth, request, this.options.http.trustProxy).then(() => true);
  }
}

/** Authenticates one request and leaves its principal on it; throws the 401 (with its challenge) or 503 refusal otherwise. */
export async function authenticateRequest(auth: McpAuthService, request: IncomingMessage, trustProxy: boolean): Promise<void> {
  try {
    (request as unknown as Record<string, unknown>)[MCP_PRINCIPAL_REQUEST_KEY] = await auth.authenticate(
      credentialsOf(request, trustProxy),
    );
  } catch (error) {
    // Too many checks from this caller: it may retry later, its token unjudged.
    if (error instanceof McpAuthThrottledError)
      throw new McpHttpRefusal('RATE_LIMITED', `Too Many Requests: ${error.message}`, { retryAfterMs: error.retryAfterMs });
    // The authorization server is down: the token may be good, so a 503 to retry, not a 401 to sign in again.
    if (error instanceof McpAuthUnavailableError)
      throw new McpHttpRefusal('UNAVAILABLE', `Service Unavailable: ${error.message}`, { retryAfterMs: error.retryAfterMs });
    const failure = error instanceof McpAuthError ? error : new McpAuthError('INVALID_TOKEN', 'The credentials could not be verified');
    throw new McpHttpRefusal(failure.code, failure.message, { headers: { 'WWW-Authenticate': auth.challenge(failure) } });
  }
}
