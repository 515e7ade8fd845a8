import { JsonRpcErrorCode } from '../../../core/json-rpc/json-rpc-error-codes.js';
import { McpHttpHeader } from '../../../core/mcp-http-headers.js';
import { MCP_UI_EXTENSION, MCP_UI_MIME_TYPE, MCP_UI_PROTOCOL_VERSION } from '../../../core/mcp-ui-extension.js';
import { MCP_SKILLS_EXTENSION } from '../../../core/mcp-skills.constants.js';
import { runExplorerClient, type McpExplorerShared } from './explorer.client.js';

/** The protocol constants the page script needs, from the tables the server itself reads. */
const SHARED: McpExplorerShared = {
  sessionHeader: McpHttpHeader.sessionId,
  protocolVersionHeader: McpHttpHeader.protocolVersion,
  apiKeyHeader: McpHttpHeader.apiKey,
  methodNotFound: JsonRpcErrorCode.METHOD_NOT_FOUND,
  uiExtension: MCP_UI_EXTENSION,
  uiMimeType: MCP_UI_MIME_TYPE,
  uiProtocolVersion: MCP_UI_PROTOCOL_VERSION,
  skillsExtension: MCP_SKILLS_EXTENSION,
};

/** The compiled source of {@link runExplorerClient}, built once so the page's policy hashes exactly this text; `<` escaped. */
export const EXPLORER_SCRIPT = `(${runExplorerClient.toString()})(${JSON.stringify(SHARED).replace(/</g, '\\u003c')});`;
