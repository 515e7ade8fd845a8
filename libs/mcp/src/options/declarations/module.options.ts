import type { Type } from '@nestjs/common';
import type { McpToolFilter } from '../../features/tools/mcp-tool-filter.interface.js';
import type { McpToolTransformation } from '../../features/transforms/mcp-tool-transformation.js';
import { isPlainObject } from '../../core/plain-object.js';
import { MCP_JOB_OPTIONS, MCP_SHUTDOWN_OPTIONS } from './jobs.options.js';
import type {
  McpHttpOptions,
  McpListsOptions,
  McpModuleOptions,
  McpObservabilityOptions,
  McpSourcesOptions,
  McpToolSearchOptions,
  McpToolsOptions,
} from '../mcp-module-options.interface.js';
import { group, option, type ResolvedOption } from '../option.builder.js';
import { checkHttpUrl, flag, integerIn, listOf, oneOf, onlyTrue, positiveInteger, required, stringList, text } from '../option.values.js';
import { MCP_AUTH_OPTIONS } from './auth.options.js';
import type { McpResolvedPaths } from './endpoint.options.js';
import { MCP_IDEMPOTENCY_OPTIONS, MCP_LIMIT_OPTIONS } from './limit.options.js';
import { MCP_METRICS_OPTIONS, MCP_TRACING_OPTIONS } from './observability.options.js';
import { MCP_LIST_CHANGED_OPTIONS, MCP_REQUEST_STATE_OPTIONS } from './protocol.options.js';
import { MCP_REDIS_OPTIONS } from './redis.options.js';
import { MCP_OPENAPI_OPTIONS } from './openapi.options.js';
import { MCP_SERVER_CARD_OPTIONS } from './server-card.options.js';
import { MCP_SESSION_OPTIONS, MCP_STREAM_OPTIONS } from './session.options.js';
import { upstreamList } from './upstream.options.js';

const SERVER_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** `http`: the public URL, proxies, DNS-rebinding checks, body size and SSE streams of the endpoint. */
const MCP_HTTP_OPTIONS = group<McpHttpOptions>()(
  {
    publicUrl: option(checkHttpUrl),
    trustProxy: onlyTrue(),
    allowedOrigins: stringList(),
    allowedHosts: option<string[], string[] | undefined>((hosts, at) =>
      hosts === undefined
        ? undefined
        : stringList()
            .resolve(hosts, at, undefined)
            .map((host) => host.toLowerCase()),
    ),
    maxBodyBytes: positiveInteger(1024 * 1024),
    streams: MCP_STREAM_OPTIONS,
  },
  { object: "such as { publicUrl: 'https://mcp.example.com' }" },
);

/** `tools.search`: off unless given; once given, on unless `enabled: false`. */
const MCP_TOOL_SEARCH_OPTIONS = group<McpToolSearchOptions>()(
  { enabled: flag(true), mode: oneOf(['replace', 'beside'] as const, 'replace'), maxResults: integerIn(10, 1, 50) },
  { object: "such as { mode: 'replace' }", absent: { enabled: false, mode: 'replace', maxResults: 10 } },
);

/** `tools`: the default timeout, per-caller filters, boot-time transforms, search and guard-based hiding. */
const MCP_TOOLS_OPTIONS = group<McpToolsOptions>()(
  {
    timeoutMs: positiveInteger(30_000),
    filters: listOf<Type<McpToolFilter>, Type<McpToolFilter>[]>(
      (filter) => typeof filter === 'function',
      'must be an array of provider classes implementing McpToolFilter',
      [],
    ),
    transforms: listOf<McpToolTransformation, McpToolTransformation[]>(
      (transform) => isPlainObject(transform) && typeof transform.kind === 'string',
      'must be an array of tool transformations (renameTool(), describeTool(), hideArguments(), renameArguments(), namespaceTools())',
      [],
    ),
    search: MCP_TOOL_SEARCH_OPTIONS,
    hideGuarded: flag(false),
  },
  { object: 'such as { timeoutMs: 30000 }' },
);

/** `sources`: controllers, OpenAPI documents and upstream MCP servers served as tools; each `[]` when unset. */
const MCP_SOURCES_OPTIONS = group<McpSourcesOptions, McpResolvedPaths>()(
  {
    routes: listOf<Type<unknown>, Type<unknown>[]>(
      (entry) => typeof entry === 'function',
      'must be an array of controller or module classes',
      [],
    ),
    openapi: MCP_OPENAPI_OPTIONS,
    upstreams: upstreamList(),
    skills: stringList(),
  },
  { object: 'such as { routes: [TicketsController] }' },
);

/** `lists`: the page size of every list and the lists whose changes are announced. */
const MCP_LISTS_OPTIONS = group<McpListsOptions>()(
  { pageSize: positiveInteger(100), listChanged: MCP_LIST_CHANGED_OPTIONS },
  { object: 'such as { pageSize: 100 }' },
);

/** `observability`: Prometheus metrics (off unless given) and OpenTelemetry traces. */
const MCP_OBSERVABILITY_OPTIONS = group<McpObservabilityOptions, McpResolvedPaths>()(
  { metrics: MCP_METRICS_OPTIONS, tracing: MCP_TRACING_OPTIONS },
  { object: "such as { metrics: { path: '/metrics' } }" },
);

/** Every key of `McpModule.forRoot()` but the extras (`MCP_ENDPOINT_OPTIONS`), in the order errors list them. */
export const MCP_MODULE_OPTIONS = group<McpModuleOptions, McpResolvedPaths>()({
  name: required<string>(
    (name) => typeof name === 'string' && SERVER_NAME_PATTERN.test(name),
    'must be 1 to 64 letters, digits, "_" or "-"',
  ),
  version: required<string>((version) => typeof version === 'string' && version.length > 0, 'must be a non-empty string'),
  title: text(),
  description: text(),
  instructions: text(),
  http: MCP_HTTP_OPTIONS,
  tools: MCP_TOOLS_OPTIONS,
  sources: MCP_SOURCES_OPTIONS,
  lists: MCP_LISTS_OPTIONS,
  sessions: MCP_SESSION_OPTIONS,
  auth: MCP_AUTH_OPTIONS,
  limits: MCP_LIMIT_OPTIONS,
  redis: MCP_REDIS_OPTIONS,
  jobs: MCP_JOB_OPTIONS,
  shutdown: MCP_SHUTDOWN_OPTIONS,
  idempotency: MCP_IDEMPOTENCY_OPTIONS,
  requestState: MCP_REQUEST_STATE_OPTIONS,
  serverCard: MCP_SERVER_CARD_OPTIONS,
  observability: MCP_OBSERVABILITY_OPTIONS,
});

/** Options after defaults and checks: what the library reads at run time. */
export type McpResolvedOptions = ResolvedOption<typeof MCP_MODULE_OPTIONS> & McpResolvedPaths;
