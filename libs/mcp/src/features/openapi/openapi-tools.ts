import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { McpMessages } from '../../core/errors/mcp.messages.js';
import type { McpToolDefinition } from '../tools/mcp-tool-definition.interface.js';
import { envelopeOutputSchema } from '../tools/schema/envelope-output-schema.js';
import { RawSchemaCompiler } from '../tools/schema/raw-schema.compiler.js';
import { checkToolNameAndTimeout } from '../tools/tool-definition.checks.js';
import type { McpOpenApiSource } from '../../options/mcp-openapi-options.interface.js';
import { openApiHandler, type OpenApiCallSettings } from './openapi-call.js';
import { sourceLabel, type LoadedOpenApiDocument } from './openapi-document.loader.js';
import { McpOpenApiMessages, McpOpenApiNotices } from './openapi.messages.js';
import { openApiPlans, type OpenApiOperationPlan } from './openapi-operations.js';
import { OutboundCredential } from '../../auth/outbound/outbound-credential.js';

/** Default bound of a response body read from the API. */
const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
/** The tool's own timeout leaves the request's room to answer TIMEOUT first, with its clearer message. */
const TOOL_TIMEOUT_MARGIN_MS = 1_000;

/** What building a document's tools needs beside the source: the defaults and where warnings go. */
export interface OpenApiToolsContext {
  readonly toolTimeoutMs: number;
  readonly warn: (message: string) => void;
  readonly compiler: RawSchemaCompiler;
}

/**
 * The tools of one loaded document (`loadOpenApiDocument`): its picked operations as tool definitions whose calls
 * are HTTP requests to the API, input schemas compiled now (a schema that does not compile fails the boot), each
 * operation that cannot be a tool said once through `warn`. What the `sources.openapi` option serves, and what another
 * source of the library (a gateway's upstream) can serve from the same fields.
 */
export function openApiTools(source: McpOpenApiSource, loaded: LoadedOpenApiDocument, context: OpenApiToolsContext): McpToolDefinition[] {
  const label = sourceLabel(source);
  const settings = settingsOf(source, loaded, label, context.toolTimeoutMs);
  const { plans, skipped } = openApiPlans(loaded.document, source, label);
  for (const { site, reason } of skipped) context.warn(McpOpenApiNotices.skipped(site, reason));
  return plans.map((plan) => describe(plan, settings, context.compiler));
}

function describe(plan: OpenApiOperationPlan, settings: OpenApiCallSettings, compiler: RawSchemaCompiler): McpToolDefinition {
  const timeoutMs = settings.timeoutMs + TOOL_TIMEOUT_MARGIN_MS;
  checkToolNameAndTimeout(plan.site, plan.name, timeoutMs);
  let validator: McpToolDefinition['validator'];
  try {
    // The document's regular expressions are the API's to run, not this server's (ReDoS).
    validator = compiler.compile(plan.inputSchema, { foreign: true });
    if (plan.outputSchema) compiler.compile(plan.outputSchema);
  } catch (error) {
    throw new McpConfigurationError(McpMessages.invalidInputSchema(plan.site, error instanceof Error ? error.message : String(error)));
  }
  return {
    name: plan.name,
    site: plan.site,
    descriptor: {
      name: plan.name,
      description: plan.description,
      inputSchema: plan.inputSchema,
      ...(plan.outputSchema && { outputSchema: envelopeOutputSchema(plan.outputSchema, { pending: false }) }),
      ...(plan.annotations && { annotations: plan.annotations }),
    },
    validator,
    timeoutMs,
    scopes: [],
    handler: openApiHandler(plan, settings),
  };
}

function settingsOf(source: McpOpenApiSource, loaded: LoadedOpenApiDocument, label: string, toolTimeoutMs: number): OpenApiCallSettings {
  const baseUrl = source.baseUrl ?? defaultBaseUrl(loaded, label);
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    ...((source.auth !== undefined || source.forwardAuthorization) && { credential: new OutboundCredential(source, label) }),
    headers: source.headers,
    timeoutMs: source.timeoutMs ?? toolTimeoutMs,
    maxResponseBytes: source.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
  };
}

/**
 * The document's `servers` URL, else the origin it was fetched from. A fetched document may not send its calls to
 * another origin than its own: whoever serves it would pick where forwarded tokens and configured headers go, so
 * only `baseUrl`, which the app's owner writes, can name another one.
 */
function defaultBaseUrl({ document, url }: LoadedOpenApiDocument, label: string): string {
  const servers = serversUrl(document, url);
  const origin = url === undefined ? undefined : new URL(url).origin;
  if (servers !== undefined && origin !== undefined && new URL(servers).origin !== origin)
    throw new McpConfigurationError(McpOpenApiMessages.serversOrigin(label, servers, origin));
  const baseUrl = servers ?? origin;
  if (baseUrl === undefined) throw new McpConfigurationError(McpOpenApiMessages.noBaseUrl(label));
  return baseUrl;
}

/** The document's first `servers` URL: absolute, or relative to the URL the document was fetched from. */
function serversUrl(document: Record<string, unknown>, documentUrl: string | undefined): string | undefined {
  const servers = Array.isArray(document.servers) ? (document.servers as { url?: unknown }[]) : [];
  for (const { url } of servers) {
    if (typeof url !== 'string' || url.includes('{')) continue;
    const absolute = /^https?:\/\//i.test(url);
    const base = absolute ? undefined : documentUrl;
    // One that does not parse is passed over, as a templated one is.
    if ((absolute || base !== undefined) && URL.canParse(url, base)) return new URL(url, base).href;
  }
  return undefined;
}
