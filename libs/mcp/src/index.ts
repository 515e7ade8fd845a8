// The public API of @nest-mcp/core: everything users may import, and nothing else.
export { McpModule } from './mcp.module.js';
export { MCP_MODULE_OPTIONS } from './mcp.module-definition.js';
export { McpConfigurationError } from './mcp-configuration.error.js';
export type { McpModuleOptions, McpModuleExtras } from './interfaces/mcp-module-options.interface.js';
export type { McpToolOptions, McpToolAnnotations } from './interfaces/mcp-tool-options.interface.js';
export type { McpToolContext, McpLogLevel } from './interfaces/mcp-tool-context.interface.js';
export type { McpPrincipal } from './interfaces/mcp-principal.interface.js';
export type { McpToolDescriptor } from './interfaces/mcp-tool-definition.interface.js';

export { McpTool } from './decorators/mcp-tool.decorator.js';
export { McpArgs, McpContext, McpPrincipalParam, McpTenant } from './decorators/mcp-param.decorators.js';
export { McpProperty, type McpPropertyOptions } from './decorators/mcp-property.decorator.js';
export { McpDto } from './decorators/mcp-dto.decorator.js';
export { MCP_TOOL_NAME_PATTERN, normalizeToolName } from './decorators/tool-name.js';

export { McpToolRegistry } from './discovery/mcp-tool.registry.js';
export { McpExecutionContext } from './execution/mcp-execution-context.js';
export { McpDispatcher } from './protocol/mcp.dispatcher.js';
export { SUPPORTED_PROTOCOL_VERSIONS, LATEST_PROTOCOL_VERSION, type McpProtocolVersion } from './protocol/protocol-versions.js';
export type { JsonRpcId } from './protocol/json-rpc.types.js';

export { McpResult, McpContent, McpRawResult, McpEnvelopeResult } from './results/mcp-result.js';
export { McpToolError, type McpToolErrorOptions } from './results/mcp-tool.error.js';
export { MCP_ERROR_CODES, type McpBuiltInErrorCode } from './results/error-codes.js';
export type { McpEnvelope, McpSuccessEnvelope, McpErrorEnvelope, McpPendingEnvelope, McpErrorBody } from './results/envelope.types.js';
export type { McpCallToolResult, McpContentBlock } from './results/content.types.js';
export type { JsonSchema } from './schema/json-schema.types.js';

export { serveMcpOverStdio } from './transports/stdio/serve-stdio.js';
export type { McpStdioOptions } from './transports/stdio/stdio.transport.js';
export { McpStderrLogger } from './transports/stdio/stderr.logger.js';
export type { McpSessionOptions, McpStreamOptions, McpJobOptions } from './interfaces/mcp-module-options.interface.js';
export { MCP_STORE, type McpKeyValueStore, type McpSlotSet } from './stores/key-value.store.js';
export { McpMemoryStore } from './stores/memory.store.js';
export type { McpAuthOptions, McpJwtOptions, McpApiKey, McpResourceMetadataOptions } from './auth/mcp-auth-options.interface.js';
export type { McpAuthenticator, McpCredentials } from './auth/mcp-authenticator.interface.js';
export { McpAuthError, type McpAuthErrorCode } from './auth/mcp-auth.error.js';
export type { McpLimitOptions, McpIdempotencyOptions } from './interfaces/mcp-module-options.interface.js';

export { McpResource, McpResourceTemplate, McpResourceParams } from './decorators/mcp-resource.decorator.js';
export { McpPrompt } from './decorators/mcp-prompt.decorator.js';
export { McpCompletion } from './decorators/mcp-completion.decorator.js';
export { McpResourceNotifier } from './resources/mcp-resource.notifier.js';
export type { McpResourceOptions, McpResourceTemplateOptions } from './resources/mcp-resource-options.interface.js';
export type { McpHandlerContext } from './resources/mcp-handler-context.interface.js';
export type { McpResourceContext } from './resources/mcp-resource-context.interface.js';
export type { McpResourceContents, McpReadResourceResult, McpResourceValue } from './resources/resource-contents.js';
export type { McpPromptOptions, McpPromptArgument } from './prompts/mcp-prompt-options.interface.js';
export type { McpPromptContext } from './prompts/mcp-prompt-context.interface.js';
export type { McpPromptMessage, McpPromptMessageInput, McpGetPromptResult, McpPromptValue } from './prompts/prompt-messages.js';
export type { McpCompletionOptions, McpCompletionRef, McpCompletionValue } from './completions/mcp-completion-options.interface.js';
export type { McpCompletionContext } from './completions/mcp-completion-context.interface.js';
export type { McpRedisOptions } from './interfaces/mcp-module-options.interface.js';
export { McpRedisStore } from './stores/redis.store.js';
export { MCP_BUS, type McpMessageBus } from './stores/message-bus.js';
export { McpMemoryBus } from './stores/memory-message.bus.js';
export { McpRedisBus } from './stores/redis-message.bus.js';
export { McpStoreUnavailableError } from './stores/store-unavailable.error.js';
export { McpQuotaExceededError } from './stores/quota-exceeded.error.js';

// Protocol revision 2026-07-28 (the stateless era), served beside the older revisions on the same endpoint.
export type { McpModernOptions } from './interfaces/mcp-module-options.interface.js';
export { MODERN_PROTOCOL_VERSIONS } from './modern/modern.constants.js';
export { withMcpInputKey } from './modern/mrtr/input-key.js';
export { McpClientInput } from './modern/mrtr/mcp-client-input.service.js';
export { McpInputRequiredSignal, McpMissingClientCapabilitySignal } from './modern/mrtr/input-required.signal.js';
export { McpListChangedNotifier } from './modern/subscriptions/mcp-list-changed.notifier.js';
export { McpTaskSupport, type McpTaskSupportOptions } from './modern/tasks/mcp-task-support.decorator.js';
