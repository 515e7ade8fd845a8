import { Inject, Injectable, Logger } from '@nestjs/common';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { McpMessages } from '../../core/errors/mcp.messages.js';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { McpComponent, McpComponentProvider } from '../components/mcp-component-provider.interface.js';
import type { McpToolDefinition } from '../tools/mcp-tool-definition.interface.js';
import { envelopeOutputSchema } from '../tools/schema/envelope-output-schema.js';
import { RawSchemaCompiler } from '../tools/schema/raw-schema.compiler.js';
import { checkToolNameAndTimeout } from '../tools/tool-definition.checks.js';
import type { McpOpenApiSource } from './mcp-openapi-options.interface.js';
import { openApiHandler, type OpenApiCallSettings } from './openapi-call.js';
import { loadOpenApiDocument, sourceLabel, type LoadedOpenApiDocument } from './openapi-document.loader.js';
import { McpOpenApiMessages, McpOpenApiNotices } from './openapi.messages.js';
import { openApiPlans, type OpenApiOperationPlan } from './openapi-operations.js';
import { loadOpenApiParser } from './openapi-parser.loader.js';

/** Default bound of a response body read from the API. */
const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
/** The tool's own timeout leaves the request's room to answer TIMEOUT first, with its clearer message. */
const TOOL_TIMEOUT_MARGIN_MS = 1_000;

/**
 * The tools of OpenAPI documents (a component provider, the module option `openapi`): `prepare()` loads each
 * document at boot (`@scalar/openapi-parser`, imported only then), `components()` turns its operations into tools
 * whose calls are HTTP requests to the API. An operation that cannot be a tool is skipped with a warning.
 */
@Injectable()
export class McpOpenApiExplorer implements McpComponentProvider {
  private readonly logger = new Logger('McpModule');
  private readonly compiler = new RawSchemaCompiler();
  private documents: { source: McpOpenApiSource; loaded: LoadedOpenApiDocument }[] = [];

  constructor(@Inject(MCP_RESOLVED_OPTIONS) private readonly options: Pick<McpResolvedOptions, 'openapi' | 'toolTimeoutMs'>) {}

  async prepare(): Promise<void> {
    if (this.options.openapi.length === 0) return;
    const parser = await loadOpenApiParser();
    this.documents = await Promise.all(
      this.options.openapi.map(async (source) => ({ source, loaded: await loadOpenApiDocument(source, parser) })),
    );
  }

  *components(): Iterable<McpComponent> {
    for (const { source, loaded } of this.documents) {
      const label = sourceLabel(source);
      const settings = this.settingsOf(source, loaded, label);
      const { plans, skipped } = openApiPlans(loaded.document, source, label);
      for (const { site, reason } of skipped) this.logger.warn(McpOpenApiNotices.skipped(site, reason));
      for (const plan of plans) yield { kind: 'tool', definition: this.describe(plan, settings) };
    }
    // Loaded once: the documents are not needed after boot.
    this.documents = [];
  }

  private describe(plan: OpenApiOperationPlan, settings: OpenApiCallSettings): McpToolDefinition {
    const timeoutMs = settings.timeoutMs + TOOL_TIMEOUT_MARGIN_MS;
    checkToolNameAndTimeout(plan.site, plan.name, timeoutMs);
    let checkRawArgs: McpToolDefinition['checkRawArgs'];
    try {
      checkRawArgs = this.compiler.compile(plan.inputSchema);
      if (plan.outputSchema) this.compiler.compile(plan.outputSchema);
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
      checkRawArgs,
      timeoutMs,
      scopes: [],
      handler: openApiHandler(plan, settings),
    };
  }

  private settingsOf(source: McpOpenApiSource, loaded: LoadedOpenApiDocument, label: string): OpenApiCallSettings {
    const baseUrl = source.baseUrl ?? serversUrl(loaded.document, loaded.url) ?? (loaded.url && new URL(loaded.url).origin);
    if (!baseUrl) throw new McpConfigurationError(McpOpenApiMessages.noBaseUrl(label));
    return {
      baseUrl: baseUrl.replace(/\/+$/, ''),
      forwardAuthorization: source.forwardAuthorization === true,
      headers: source.headers,
      timeoutMs: source.timeoutMs ?? this.options.toolTimeoutMs,
      maxResponseBytes: source.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    };
  }
}

/** The document's first `servers` URL: absolute, or relative to the URL the document was fetched from. */
function serversUrl(document: Record<string, unknown>, documentUrl: string | undefined): string | undefined {
  const servers = Array.isArray(document.servers) ? (document.servers as { url?: unknown }[]) : [];
  for (const { url } of servers) {
    if (typeof url !== 'string' || url.includes('{')) continue;
    if (/^https?:\/\//i.test(url)) return url;
    if (documentUrl !== undefined) return new URL(url, documentUrl).href;
  }
  return undefined;
}
