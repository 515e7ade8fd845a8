import { McpToolError } from '../../../core/errors/mcp-tool.error.js';
import type { McpErrorBody } from '../../../core/results/envelope.types.js';
import { UserAuthorizationMessages as Messages } from './user-authorization.messages.js';

/**
 * `UPSTREAM_AUTHORIZATION_REQUIRED`: the caller has not connected their account at a per-user upstream. The envelope
 * carries the URL to open (`authorization_url`, also in the message for a model that reads only text).
 */
export class UpstreamAuthorizationRequiredError extends McpToolError {
  constructor(
    readonly upstream: string,
    readonly url: string,
  ) {
    super('UPSTREAM_AUTHORIZATION_REQUIRED', Messages.required(upstream, url), { retryable: false });
  }

  override toErrorBody(): McpErrorBody & { authorization_url: string } {
    return { ...super.toErrorBody(), authorization_url: this.url };
  }
}
