import { McpToolError } from '../../../core/errors/mcp-tool.error.js';
import type { McpToolDefinition } from '../../tools/mcp-tool-definition.interface.js';
import { NO_ARGUMENTS_VALIDATOR } from '../../../execution/validation/fixed-argument.validators.js';
import type { UpstreamUserAuthorization } from './upstream-user-authorization.js';
import { UserAuthorizationMessages as Messages } from './user-authorization.messages.js';

/** The name of the tool that disconnects the caller from a per-user upstream (outside the upstream's own namespace). */
export const disconnectToolName = (upstream: string) => `disconnect_${upstream}`.replaceAll('-', '_');

/**
 * `disconnect_<upstream>`: forgets the caller's own connection to a per-user upstream (its refresh token revoked
 * where the authorization server can), so their next call asks them to connect again. Only ever the caller's own.
 */
export function disconnectTool(upstream: string, users: UpstreamUserAuthorization, timeoutMs: number): McpToolDefinition {
  const name = disconnectToolName(upstream);
  return {
    name,
    site: `upstream "${upstream}" disconnect tool`,
    descriptor: {
      name,
      description: `Disconnects your account at the upstream "${upstream}": its tools then ask you to connect again`,
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    validator: NO_ARGUMENTS_VALIDATOR,
    timeoutMs,
    scopes: [],
    runtime: true,
    handler: async (_args, context) => {
      const subject = context.principal?.subject;
      if (subject === undefined) throw new McpToolError('UNAUTHORIZED', Messages.noUser(upstream));
      const disconnected = await users.disconnect({ tenant: context.tenant, subject });
      return { upstream, disconnected, message: disconnected ? Messages.disconnected(upstream) : Messages.notConnected(upstream) };
    },
  };
}
