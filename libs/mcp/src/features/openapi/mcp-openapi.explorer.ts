import { Inject, Injectable, Logger } from '@nestjs/common';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { McpComponent, McpComponentProvider } from '../components/mcp-component-provider.interface.js';
import { RawSchemaCompiler } from '../tools/schema/raw-schema.compiler.js';
import type { McpOpenApiSource } from '../../options/mcp-openapi-options.interface.js';
import { loadOpenApiDocument, type LoadedOpenApiDocument } from './openapi-document.loader.js';
import { loadOpenApiParser } from './openapi-parser.loader.js';
import { openApiTools } from './openapi-tools.js';

/**
 * The tools of OpenAPI documents (a component provider, the module option `sources.openapi`): `prepare()` loads each
 * document at boot (`@scalar/openapi-parser`, imported only then), `components()` turns its operations into tools
 * whose calls are HTTP requests to the API. An operation that cannot be a tool is skipped with a warning.
 */
@Injectable()
export class McpOpenApiExplorer implements McpComponentProvider {
  private readonly logger = new Logger('McpModule');
  private documents: { source: McpOpenApiSource; loaded: LoadedOpenApiDocument }[] = [];

  constructor(@Inject(MCP_RESOLVED_OPTIONS) private readonly options: Pick<McpResolvedOptions, 'sources' | 'tools'>) {}

  async prepare(): Promise<void> {
    if (this.options.sources.openapi.length === 0) return;
    const parser = await loadOpenApiParser();
    this.documents = await Promise.all(
      this.options.sources.openapi.map(async (source) => ({ source, loaded: await loadOpenApiDocument(source, parser) })),
    );
  }

  *components(): Iterable<McpComponent> {
    const context = {
      toolTimeoutMs: this.options.tools.timeoutMs,
      warn: (message: string) => this.logger.warn(message),
      compiler: new RawSchemaCompiler(),
    };
    for (const { source, loaded } of this.documents) {
      for (const definition of openApiTools(source, loaded, context)) yield { kind: 'tool', definition };
    }
    // Read once: the documents are not needed after boot.
    this.documents = [];
  }
}
