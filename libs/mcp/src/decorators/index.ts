export * from './mcp-tool.decorator.js';
export { McpArgs, McpContext, McpPrincipalParam, McpTenant } from './mcp-param.decorators.js';
export * from './tool-name.js';
