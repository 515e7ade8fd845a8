/**
 * `@nest-mcp/core/testing`, the public face of the test tools: call an app's tools, resources and prompts in
 * jest without a socket, through the same dispatcher and call pipeline as HTTP (`McpTestClient`), or connect the
 * official MCP SDK `Client` to it in-process (`McpInMemoryTransport`), or give a service that injects `McpClient`
 * a real one wired to it (`createMcpTestClient`). Nothing in the library imports this face.
 */
export { McpTestClient } from './mcp-test.client.js';
export type { McpTestToolCall, McpTestPrompt, McpTestNotification } from './mcp-test.client.js';
export { McpInMemoryTransport } from './mcp-in-memory.transport.js';
export type { McpTransportMessage } from './mcp-in-memory.transport.js';
export type { McpTestApp, McpTestClientOptions, McpTestPrincipal } from './mcp-test.connection.js';
export { McpRpcError } from './mcp-rpc.error.js';
export { createMcpTestClient } from './create-mcp-test-client.js';
export type { McpInMemoryClientOptions } from './create-mcp-test-client.js';
