// The public API of @nest-mcp/core: everything users may import, and nothing else (public-api.spec.ts holds
// the approved list). Internals (the dispatcher, stores and buses, raw tokens, control-flow signals) stay out.

// Module and options.
export { McpModule } from './mcp.module.js';
export type {
  McpModuleOptions,
  McpModuleExtras,
  McpModuleForRootOptions,
  McpModuleAsyncOptions,
  McpHttpOptions,
  McpToolsOptions,
  McpSourcesOptions,
  McpListsOptions,
  McpObservabilityOptions,
  McpSessionOptions,
  McpStreamOptions,
  McpJobOptions,
  McpShutdownOptions,
  McpLimitOptions,
  McpIdempotencyOptions,
  McpRedisOptions,
  McpRedisClusterOptions,
  McpRedisClusterNode,
  McpInstanceLeaseOptions,
  McpRequestStateOptions,
  McpListChangedOptions,
  McpToolSearchOptions,
  McpExplorerOptions,
  McpTracingOptions,
} from './options/mcp-module-options.interface.js';
export type { McpServerCardOptions } from './options/mcp-server-card-options.interface.js';
export type { McpMetricsOptions, McpMetricsRegistry } from './options/mcp-metrics-options.interface.js';
export type {
  McpAuthOptions,
  McpJwtOptions,
  McpOAuthOptions,
  McpOAuthIntrospectionOptions,
  McpOAuthBridgeOptions,
  McpOAuthBridgeScopeMapping,
  McpOAuthBridgeScopes,
  McpOAuthBridgeUpstreamOptions,
  McpApiKey,
  McpResourceMetadataOptions,
} from './options/mcp-auth-options.interface.js';

// Decorators and their options.
export { McpTool } from './features/tools/mcp-tool.decorator.js';
export type { McpToolOptions, McpToolAnnotations, McpOutputType } from './features/tools/mcp-tool-options.interface.js';
export type { McpStandardSchema } from './core/standard-schema.js';
export { McpRoute, McpExcludeRoute } from './features/routes/mcp-route.decorator.js';
export type { McpRouteOptions } from './features/routes/mcp-route-options.interface.js';
export type { McpOpenApiSource, McpOpenApiSelection, McpOpenApiCaller } from './options/mcp-openapi-options.interface.js';
export { McpArgs, McpContext, McpPrincipalParam, McpTenant } from './features/tools/mcp-param.decorators.js';
export { McpProperty, type McpPropertyOptions } from './features/tools/schema/mcp-property.decorator.js';
export { McpDto, type McpDtoOptions } from './features/tools/schema/mcp-dto.decorator.js';
export { MCP_TOOL_NAME_PATTERN, normalizeToolName } from './features/tools/tool-name.js';
export { McpResource, McpResourceTemplate, McpResourceParams } from './features/resources/mcp-resource.decorator.js';
export type { McpResourceOptions, McpResourceTemplateOptions } from './features/resources/mcp-resource-options.interface.js';
export { McpUiResource } from './features/apps/mcp-ui-resource.decorator.js';
export { MCP_UI_EXTENSION, MCP_UI_MIME_TYPE } from './features/apps/mcp-apps.constants.js';
export type {
  McpToolUiOptions,
  McpUiToolVisibility,
  McpUiResourceOptions,
  McpUiResourceCsp,
  McpUiResourcePermissions,
} from './features/apps/mcp-ui-options.interface.js';
export { McpPrompt } from './features/prompts/mcp-prompt.decorator.js';
export type { McpPromptOptions, McpPromptArgument } from './features/prompts/mcp-prompt-options.interface.js';
export { McpCompletion } from './features/completions/mcp-completion.decorator.js';
export type {
  McpCompletionOptions,
  McpCompletionRef,
  McpCompletionValue,
} from './features/completions/mcp-completion-options.interface.js';
export { McpTaskSupport, type McpTaskSupportOptions } from './features/tasks/mcp-task-support.decorator.js';

// What handlers receive: contexts, the caller, the execution context guards see.
export type {
  McpToolContext,
  McpLogLevel,
  McpClientRequestOptions,
  McpSamplingRequest,
  McpSamplingResult,
  McpElicitationRequest,
  McpElicitationResult,
} from './core/mcp-tool-context.interface.js';
export type { McpPrincipal } from './core/mcp-principal.interface.js';
export type { McpHandlerContext } from './features/mcp-handler-context.interface.js';
export type { McpResourceContext } from './features/resources/mcp-resource-context.interface.js';
export type { McpPromptContext } from './features/prompts/mcp-prompt-context.interface.js';
export type { McpCompletionContext } from './features/completions/mcp-completion-context.interface.js';
export { McpExecutionContext } from './execution/mcp-execution-context.js';

// Health (for @nestjs/terminus).
export {
  McpHealthIndicator,
  type McpHealthIndicatorResult,
  type McpHealthPartStatus,
  type McpHealthCheckOptions,
} from './observability/health/mcp.health-indicator.js';
export type { McpToolDescriptor } from './features/tools/mcp-tool-definition.interface.js';
export { McpToolRegistry } from './features/tools/mcp-tool.registry.js';
export type { McpToolRegistration, McpToolHandle } from './features/tools/mcp-tool-registration.interface.js';
export type { McpToolFilter, McpToolVisibleTo } from './options/mcp-tool-filter.interface.js';
export {
  renameTool,
  describeTool,
  hideArguments,
  renameArguments,
  namespaceTools,
  type McpToolTransformation,
  type McpToolSelection,
  type McpToolSelector,
  type McpToolProviderClass,
} from './options/mcp-tool-transformation.js';
export { McpResourceRegistry } from './features/resources/mcp-resource.registry.js';
export type {
  McpResourceRegistration,
  McpFixedResourceRegistration,
  McpResourceTemplateRegistration,
  McpResourceHandlerFunction,
  McpResourceHandle,
} from './features/resources/mcp-resource-registration.interface.js';
export { McpPromptRegistry } from './features/prompts/mcp-prompt.registry.js';
export type { McpPromptRegistration, McpPromptHandle } from './features/prompts/mcp-prompt-registration.interface.js';
export type { JsonRpcId } from './core/json-rpc/json-rpc.types.js';

// Agent Skills (SEP-2640): `sources.skills` folders, skills built at run time, the wire shapes a relay needs.
export { McpSkillRegistry, type McpSkillHandle } from './features/skills/mcp-skill.registry.js';
export { McpSkillProvider } from './features/skills/mcp-skill-provider.decorator.js';
export { MCP_SKILLS_EXTENSION, MCP_SKILL_URI_SCHEME, MCP_SKILL_LIMITS } from './core/mcp-skills.constants.js';
export {
  type McpSkillSource,
  type McpSkillDefinition,
  type McpSkillEntry,
  type McpSkillResourceEntry,
  type McpSkillCaller,
} from './features/skills/mcp-skill.interface.js';

// Results.
export { McpResult, McpContent, McpRawResult, McpEnvelopeResult } from './core/results/mcp-result.js';
export type { McpEnvelope, McpSuccessEnvelope, McpErrorEnvelope, McpPendingEnvelope, McpErrorBody } from './core/results/envelope.types.js';
export type { McpCallToolResult, McpContentBlock, McpContentAnnotations, McpResourceLink } from './core/results/content.types.js';
export type { McpResourceContents, McpReadResourceResult, McpResourceValue } from './features/resources/resource-contents.js';
export type { McpPromptMessage, McpPromptMessageInput, McpGetPromptResult, McpPromptValue } from './features/prompts/prompt-messages.js';
export type { JsonSchema } from './core/json-schema.types.js';

// Errors: the catalogue and the typed errors.
export { MCP_ERROR_CODES, type McpBuiltInErrorCode, type McpErrorCodeSpec } from './core/errors/error-codes.js';
export { McpConfigurationError } from './core/errors/mcp-configuration.error.js';
export type { McpBootErrorCode, McpBootErrorDetail } from './core/errors/boot-errors.js';
export { McpToolError, type McpToolErrorOptions } from './core/errors/mcp-tool.error.js';
export { McpStoreUnavailableError } from './core/errors/store-unavailable.error.js';
export { McpQuotaExceededError } from './core/errors/quota-exceeded.error.js';
export { McpAuthError, type McpAuthErrorCode } from './auth/mcp-auth.error.js';
export { McpMissingClientCapabilitySignal } from './core/missing-client-capability.signal.js';

// Protocol revisions.
export {
  MCP_PROTOCOL_REVISIONS,
  SUPPORTED_PROTOCOL_VERSIONS,
  LATEST_PROTOCOL_VERSION,
  type McpProtocolRevision,
  type McpProtocolVersion,
  type McpEra,
} from './core/protocol-revisions.js';

// Services users inject.
export { McpResourceNotifier } from './features/resources/mcp-resource.notifier.js';
export { McpListChangedNotifier } from './core/list-changed.notifier.js';
export { McpClientInput } from './core/mcp-client-input.service.js';
export { withMcpInputKey } from './core/input-key.js';

// Authentication. The store and the bus are chosen by the `redis` option and plugged in by nothing else: their
// interfaces and tokens stay internal (specs import them from their source files).
export type { McpAuthenticator, McpCredentials } from './options/mcp-authenticator.interface.js';

// stdio.
export { serveMcpOverStdio } from './transports/stdio/serve-stdio.js';
export type { McpStdioOptions } from './transports/stdio/stdio.transport.js';
export { McpStderrLogger } from './transports/stdio/stderr.logger.js';

// The client: calls a remote MCP server's tools, resources and prompts from a Nest service.
export { McpClient } from './client/mcp-client.js';
export { McpClientModule } from './client/mcp-client.module.js';
export { McpClientError, type McpClientErrorCode } from './client/mcp-client.error.js';
export type {
  McpClientCallOptions,
  McpClientCommonOptions,
  McpClientHeaders,
  McpClientHttpOptions,
  McpClientOptions,
  McpClientProtocol,
  McpClientReconnectOptions,
  McpClientStdioOptions,
} from './client/mcp-client-options.interface.js';
export type {
  McpClientAuthorizationCodeGrant,
  McpClientClientCredentialsGrant,
  McpClientOAuthOptions,
  McpClientPreRegistration,
  McpClientTokenStore,
} from './client/auth/mcp-client-auth-options.interface.js';
export type {
  McpClientState,
  McpRemotePrompt,
  McpRemoteResource,
  McpRemoteResourceTemplate,
  McpRemoteTool,
  McpRemoteToolResult,
  McpServerNotification,
  McpServerSummary,
} from './client/mcp-client.types.js';
export type { McpRemoteSkill, McpRemoteSkillResource, McpSkillFile } from './client/skills/skill.types.js';
export { McpSkillVerificationError, type McpSkillVerificationReason } from './client/skills/skill-verification.error.js';

// Upstream MCP servers served behind this one (module option `sources.upstreams`).
export type { McpUpstreamOptions, McpUpstreamCaller } from './options/mcp-upstream-options.interface.js';
export type {
  McpOutboundAuth,
  McpOAuthClientOptions,
  McpUserAuthorizationOptions,
  McpUpstreamUserConfirmation,
} from './options/mcp-outbound-auth.interface.js';
export {
  McpUpstreamsHealthIndicator,
  type McpUpstreamHealth,
  type McpUpstreamsHealthOptions,
} from './features/upstreams/mcp-upstreams.health-indicator.js';
