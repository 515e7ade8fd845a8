// The public API of @nest-mcp/core: everything users may import, and nothing else.
export { McpModule } from './mcp.module.js';
export { MCP_MODULE_OPTIONS } from './mcp.module-definition.js';
export { McpConfigurationError } from './core/errors/mcp-configuration.error.js';
export type { McpModuleOptions, McpModuleExtras } from './options/mcp-module-options.interface.js';
export type { McpToolOptions, McpToolAnnotations } from './features/tools/mcp-tool-options.interface.js';
export type { McpToolContext, McpLogLevel } from './features/tools/mcp-tool-context.interface.js';
export type { McpPrincipal } from './core/mcp-principal.interface.js';
export type { McpToolDescriptor } from './features/tools/mcp-tool-definition.interface.js';

export { McpTool } from './features/tools/mcp-tool.decorator.js';
export { McpArgs, McpContext, McpPrincipalParam, McpTenant } from './features/tools/mcp-param.decorators.js';
export { McpProperty, type McpPropertyOptions } from './features/tools/schema/mcp-property.decorator.js';
export { McpDto } from './features/tools/schema/mcp-dto.decorator.js';
export { MCP_TOOL_NAME_PATTERN, normalizeToolName } from './features/tools/tool-name.js';

export { McpToolRegistry } from './features/tools/mcp-tool.registry.js';
export { McpExecutionContext } from './execution/mcp-execution-context.js';
export { McpDispatcher } from './core/mcp.dispatcher.js';
export { SUPPORTED_PROTOCOL_VERSIONS, LATEST_PROTOCOL_VERSION, type McpProtocolVersion } from './core/protocol-versions.js';
export type { JsonRpcId } from './core/json-rpc/json-rpc.types.js';

export { McpResult, McpContent, McpRawResult, McpEnvelopeResult } from './core/results/mcp-result.js';
export { McpToolError, type McpToolErrorOptions } from './core/errors/mcp-tool.error.js';
export { MCP_ERROR_CODES, type McpBuiltInErrorCode } from './core/errors/error-codes.js';
export type { McpEnvelope, McpSuccessEnvelope, McpErrorEnvelope, McpPendingEnvelope, McpErrorBody } from './core/results/envelope.types.js';
export type { McpCallToolResult, McpContentBlock } from './core/results/content.types.js';
export type { JsonSchema } from './features/tools/schema/json-schema.types.js';

export { serveMcpOverStdio } from './transports/stdio/serve-stdio.js';
export type { McpStdioOptions } from './transports/stdio/stdio.transport.js';
export { McpStderrLogger } from './transports/stdio/stderr.logger.js';
export type { McpSessionOptions, McpStreamOptions, McpJobOptions } from './options/mcp-module-options.interface.js';
export { MCP_STORE, type McpKeyValueStore, type McpSlotSet } from './stores/key-value.store.js';
export { McpMemoryStore } from './stores/memory.store.js';
export type { McpAuthOptions, McpJwtOptions, McpApiKey, McpResourceMetadataOptions } from './auth/mcp-auth-options.interface.js';
export type { McpAuthenticator, McpCredentials } from './auth/mcp-authenticator.interface.js';
export { McpAuthError, type McpAuthErrorCode } from './auth/mcp-auth.error.js';
export type { McpLimitOptions, McpIdempotencyOptions } from './options/mcp-module-options.interface.js';

export { McpResource, McpResourceTemplate, McpResourceParams } from './features/resources/mcp-resource.decorator.js';
export { McpPrompt } from './features/prompts/mcp-prompt.decorator.js';
export { McpCompletion } from './features/completions/mcp-completion.decorator.js';
export { McpResourceNotifier } from './features/resources/mcp-resource.notifier.js';
export type { McpResourceOptions, McpResourceTemplateOptions } from './features/resources/mcp-resource-options.interface.js';
export type { McpHandlerContext } from './features/mcp-handler-context.interface.js';
export type { McpResourceContext } from './features/resources/mcp-resource-context.interface.js';
export type { McpResourceContents, McpReadResourceResult, McpResourceValue } from './features/resources/resource-contents.js';
export type { McpPromptOptions, McpPromptArgument } from './features/prompts/mcp-prompt-options.interface.js';
export type { McpPromptContext } from './features/prompts/mcp-prompt-context.interface.js';
export type { McpPromptMessage, McpPromptMessageInput, McpGetPromptResult, McpPromptValue } from './features/prompts/prompt-messages.js';
export type { McpCompletionOptions, McpCompletionRef, McpCompletionValue } from './features/completions/mcp-completion-options.interface.js';
export type { McpCompletionContext } from './features/completions/mcp-completion-context.interface.js';
export type { McpRedisOptions } from './options/mcp-module-options.interface.js';
export { McpRedisStore } from './stores/redis.store.js';
export { MCP_BUS, type McpMessageBus } from './stores/message-bus.js';
export { McpMemoryBus } from './stores/memory-message.bus.js';
export { McpRedisBus } from './stores/redis-message.bus.js';
export { McpStoreUnavailableError } from './stores/store-unavailable.error.js';
export { McpQuotaExceededError } from './stores/quota-exceeded.error.js';

// Protocol revision 2026-07-28 (the stateless era), served beside the older revisions on the same endpoint.
export type { McpModernOptions } from './options/mcp-module-options.interface.js';
export { MODERN_PROTOCOL_VERSIONS } from './eras/rev-2026-07-28/rev-2026-07-28.constants.js';
export { withMcpInputKey } from './eras/rev-2026-07-28/mrtr/input-key.js';
export { McpClientInput } from './eras/rev-2026-07-28/mrtr/mcp-client-input.service.js';
export { McpInputRequiredSignal, McpMissingClientCapabilitySignal } from './eras/rev-2026-07-28/mrtr/input-required.signal.js';
export { McpListChangedNotifier } from './eras/rev-2026-07-28/subscriptions/mcp-list-changed.notifier.js';
export { McpTaskSupport, type McpTaskSupportOptions } from './features/tasks/mcp-task-support.decorator.js';
