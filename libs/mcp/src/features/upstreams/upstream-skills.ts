import { McpClientError } from '../../client/mcp-client.error.js';
import type { McpRemoteSkill, McpSkillFile } from '../../client/skills/skill.types.js';
import { McpSkillVerificationError } from '../../client/skills/skill-verification.error.js';
import { MCP_CALLER } from '../../core/caller-headers.js';
import { clientText } from '../../core/client-text.js';
import { JsonRpcErrorCode } from '../../core/json-rpc/json-rpc-error-codes.js';
import { McpProtocolError } from '../../core/errors/protocol-error.js';
import { tenantOf } from '../../core/tenant.js';
import { resourceNotFound } from '../resources/resource-uri-param.js';
import type { RelayedSkill, SkillRequest } from '../skills/skill-relay.interface.js';
import type { McpUpstream, UpstreamCaller } from './mcp-upstream.js';
import { checkScopes } from './upstream-components.js';
import { originalSkillUri, relayedSkillUri } from './upstream-names.js';

const SKILL_MD = '/SKILL.md';

/**
 * An upstream's skill served here under `skill://<upstream>/…`: its entry as the upstream listed it (URIs
 * re-prefixed, digests and sizes untouched), its files read only when our caller reads one, through that caller's
 * upstream session (its credential, never another caller's), and verified here against the entry: bytes that do not
 * match are refused with a JSON-RPC error, never passed on.
 */
export function relayedSkill(upstream: McpUpstream, remote: McpRemoteSkill): RelayedSkill {
  const ours = (uri: string) => relayedSkillUri(upstream.name, uri);
  const uri = ours(remote.uri);
  const resources = remote.resources === 'dynamic' ? 'dynamic' : remote.resources.map((file) => ({ ...file, uri: ours(file.uri) }));
  const entry = { ...remote, uri, resources } as RelayedSkill['entry'];
  return {
    uri,
    root: uri.slice(0, -SKILL_MD.length),
    entry,
    scopes: upstream.scopes,
    read: async (wanted, request) => {
      const caller = callerOf(upstream, request);
      let file: McpSkillFile;
      try {
        file = await upstream.readSkillFile(remote, originalSkillUri(upstream.name, wanted)!, caller, request.signal);
      } catch (error) {
        throw readError(upstream, wanted, error);
      }
      const base = { uri: wanted, ...(file.mimeType !== undefined && { mimeType: file.mimeType }) };
      const content =
        file.text !== undefined ? { ...base, text: file.text } : { ...base, blob: Buffer.from(file.bytes).toString('base64') };
      return { contents: [content] };
    },
    ...(upstream.readsSkillDirectories && {
      directory: async (wanted: string, request: SkillRequest) => {
        const caller = callerOf(upstream, request);
        try {
          const children = await upstream.readSkillDirectory(originalSkillUri(upstream.name, wanted)!, caller, request.signal);
          return children.map((child) => ({ ...child, uri: ours(child.uri), mimeType: child.mimeType ?? 'application/octet-stream' }));
        } catch (error) {
          throw readError(upstream, wanted, error);
        }
      },
    }),
  };
}

/** The caller a relayed read is made for, its scopes for the upstream checked (as a relayed resource's are). */
function callerOf(upstream: McpUpstream, { context }: SkillRequest): UpstreamCaller {
  checkScopes(upstream, context);
  // The caller's headers ride along as a tool call's do: a forwarded or exchanged credential is this caller's own.
  return Object.assign(
    { tenant: tenantOf(context.principal), ...(context.principal && { principal: context.principal }) },
    { [MCP_CALLER]: context.caller },
  );
}

/**
 * What our caller gets when a relayed read fails: a file the entry does not list is not found here; one whose bytes
 * fail verification is refused (-32603, why in `data`); the upstream's own JSON-RPC error is passed on; any other
 * failure (unreachable, timed out) is -32000 with the reason.
 */
function readError(upstream: McpUpstream, uri: string, error: unknown): McpProtocolError {
  if (error instanceof McpSkillVerificationError) {
    if (error.reason === 'unlisted') return resourceNotFound(uri);
    return new McpProtocolError(
      JsonRpcErrorCode.INTERNAL_ERROR,
      `The upstream "${upstream.name}" sent ${clientText(uri, 200)} not as its skill entry says (${error.reason}): refused`,
      { uri: clientText(uri, 200), reason: error.reason },
    );
  }
  if (error instanceof McpClientError && error.code === 'RPC' && error.rpcCode !== undefined)
    return new McpProtocolError(error.rpcCode, clientText(error.message, 500), { uri: clientText(uri, 200) });
  return new McpProtocolError(JsonRpcErrorCode.SERVER_ERROR, upstream.failure(error).message);
}
