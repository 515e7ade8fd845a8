/**
 * `@nest-mcp/core/testing`: call an app in-process (`McpTestClient`), connect the SDK `Client` to it
 * (`McpInMemoryTransport`), or wire an `McpClient` to it (`createMcpTestClient`). Nothing in the library imports it.
 */
export { McpTestClient } from './mcp-test.client.js';
export type { McpTestToolCall, McpTestPrompt, McpTestNotification } from './mcp-test.client.js';
export { McpInMemoryTransport } from './mcp-in-memory.transport.js';
export type { McpTransportMessage } from './mcp-in-memory.transport.js';
export type { McpTestApp, McpTestClientOptions, McpTestPrincipal } from './mcp-test.connection.js';
export { McpRpcError } from './mcp-rpc.error.js';
export { createMcpTestClient } from './create-mcp-test-client.js';
export type { McpInMemoryClientOptions } from './create-mcp-test-client.js';
