import { McpOAuthBridgeMessages } from './auth/bridge/bridge.messages.js';
import { McpOAuthMessages } from './auth/oauth/oauth.messages.js';
import type { AnyBootErrorBuilder } from './core/errors/boot-errors.js';
import type { McpBootErrorSection } from './core/errors/boot-errors.page.js';
import * as Core from './core/errors/mcp.messages.js';
import { PARAM_HEADER_ERRORS, TASK_ERRORS } from './eras/rev-2026-07-28/rev-2026-07-28.messages.js';
import { McpAppsMessages } from './features/apps/mcp-apps.messages.js';
import { McpOpenApiMessages } from './features/openapi/openapi.messages.js';
import { McpPromptRuntimeMessages } from './features/prompts/mcp-prompt-runtime.messages.js';
import { McpResourceRuntimeMessages } from './features/resources/mcp-resource-runtime.messages.js';
import { McpRouteMessages } from './features/routes/mcp-route.messages.js';
import { McpSkillMessages } from './features/skills/skill.messages.js';
import { McpToolRuntimeMessages } from './features/tools/mcp-tool-runtime.messages.js';
import { McpDtoSchemaWarnings } from './features/tools/schema/dto-schema.messages.js';
import { McpStandardSchemaMessages } from './features/tools/schema/standard-schema.messages.js';
import { McpTransformMessages } from './features/transforms/mcp-transform.messages.js';
import { UserAuthorizationWarnings } from './features/upstreams/user-auth/user-authorization.messages.js';
import { McpJobMessages } from './jobs/job.messages.js';
import { McpHealthMessages } from './observability/health/health.messages.js';
import { McpMetricsMessages } from './observability/metrics/metrics.messages.js';
import { McpTracingMessages } from './observability/tracing/tracing.messages.js';
import { McpServersMessages } from './options/mcp-servers.messages.js';
import { McpOutboundAuthMessages } from './options/outbound-auth.messages.js';
import { McpStoreMessages } from './stores/store.messages.js';
import { McpTestingMessages } from './testing/mcp-testing.messages.js';

/** The boot errors and warnings of an area's messages object (which also holds log texts), in its order. */
export function bootErrorsOf(area: object): AnyBootErrorBuilder[] {
  return Object.values(area).filter(
    (value): value is AnyBootErrorBuilder => typeof value === 'function' && /^MCP_(ERR|WARN)_/.test(value.code),
  );
}

const section = (title: string, areas: readonly object[], intro?: string): McpBootErrorSection => ({
  title,
  intro,
  errors: areas.flatMap(bootErrorsOf),
});

/**
 * Every boot error and warning of the library, in the sections and order of docs/errors.md, which
 * `npm run docs:errors` writes from it. It sits above the rooms because it lists all of them; each area keeps its
 * entries (code, message, fix) in its own `*.messages.ts`, so a new entry there appears here, and on the page once
 * regenerated.
 */
export const MCP_BOOT_ERROR_CATALOGUE: readonly McpBootErrorSection[] = [
  section('Tools (`@McpTool()`)', [Core.TOOL_ERRORS, PARAM_HEADER_ERRORS, McpToolRuntimeMessages]),
  section('Standard Schema validators (`@McpTool({ input, output })`, `args` of the registries, `@McpPrompt({ arguments })`)', [
    McpStandardSchemaMessages,
  ]),
  section('Controller routes as tools (`@McpRoute()`, the `sources.routes` option)', [McpRouteMessages]),
  section('OpenAPI documents as tools (the `sources.openapi` option)', [McpOpenApiMessages]),
  section('Resources (`@McpResource()`, `@McpResourceTemplate()`, `McpResourceRegistry`)', [
    Core.RESOURCE_ERRORS,
    McpResourceRuntimeMessages,
  ]),
  section('Prompts (`@McpPrompt()`, `McpPromptRegistry`)', [Core.PROMPT_ERRORS, McpPromptRuntimeMessages]),
  section('Completions (`@McpCompletion()`)', [Core.COMPLETION_ERRORS]),
  section('MCP Apps (`@McpTool({ ui })`, `@McpUiResource()`)', [McpAppsMessages]),
  section(
    'Agent Skills (the `sources.skills` option, `McpSkillRegistry.register()`)',
    [McpSkillMessages],
    'Each is thrown while the server boots (or by `register()`); a skill of an `@McpSkillProvider()` that breaks the\n' +
      'same rules is logged once with its code and left out of what callers see. See [Agent Skills](guide/skills.md).',
  ),
  section('Tasks (2026-07-28)', [TASK_ERRORS]),
  section('Module options (`McpModule.forRoot()`)', [
    Core.OPTION_ERRORS,
    McpStoreMessages,
    McpOAuthMessages,
    McpOutboundAuthMessages,
    McpOAuthBridgeMessages,
    McpJobMessages,
    McpTracingMessages,
    McpMetricsMessages,
  ]),
  section('Tool transforms (`McpModule.forRoot({ tools: { transforms } })`)', [McpTransformMessages]),
  section('Several servers in one app', [McpServersMessages, Core.SERVER_ERRORS]),
  section('Health and testing', [McpHealthMessages, McpTestingMessages]),
  section(
    'Boot warnings',
    [UserAuthorizationWarnings, McpDtoSchemaWarnings],
    'Legal but surprising choices do not fail the boot; they are said once per app as a `WARN` line under `McpModule`, led\n' +
      'by their code (an app with several MCP servers says each one once, not once per server):',
  ),
];
