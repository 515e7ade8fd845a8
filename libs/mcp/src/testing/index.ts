/** `@nest-mcp/core/testing`: in-process test tools over an app; nothing in the library imports this face. */
export { McpTestClient } from './mcp-test.client.js';
export type { McpTestToolCall, McpTestCallOptions, McpTestPrompt, McpTestNotification } from './mcp-test.client.js';
export { McpInMemoryTransport } from './mcp-in-memory.transport.js';
export type { McpTransportMessage } from './mcp-in-memory.transport.js';
export type { McpTestApp, McpTestClientOptions, McpTestPrincipal } from './mcp-test.connection.js';
export { McpRpcError } from './mcp-rpc.error.js';
export { createMcpTestClient } from './create-mcp-test-client.js';
export type { McpInMemoryClientOptions } from './create-mcp-test-client.js';
