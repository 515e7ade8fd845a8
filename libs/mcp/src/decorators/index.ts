export * from './mcp-tool.decorator.js';
export { McpArgs, McpContext, McpPrincipalParam, McpTenant } from './mcp-param.decorators.js';
export * from './tool-name.js';
export { McpResource, McpResourceTemplate, McpResourceParams } from './mcp-resource.decorator.js';
export { McpPrompt } from './mcp-prompt.decorator.js';
export { McpCompletion } from './mcp-completion.decorator.js';
