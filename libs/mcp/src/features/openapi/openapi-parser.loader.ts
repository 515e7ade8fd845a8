import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { McpOpenApiMessages } from './openapi.messages.js';

/** The part of `@scalar/openapi-parser` used here: upgrade to 3.1 and validate. */
export interface OpenApiParser {
  upgrade(value: string | Record<string, unknown>): { specification?: Record<string, unknown> | null };
  validate(value: Record<string, unknown>): Promise<{ valid: boolean; errors?: { message: string; path?: string }[] }>;
}

const PARSER = '@scalar/openapi-parser';

/**
 * `@scalar/openapi-parser`, imported only when the option `sources.openapi` is used (an optional peer dependency); its
 * absence is a coded boot error. `load` is the import, replaceable in specs.
 */
export async function loadOpenApiParser(
  load: (specifier: string) => Promise<unknown> = (specifier) => import(specifier),
): Promise<OpenApiParser> {
  try {
    return (await load(PARSER)) as OpenApiParser;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') throw new McpConfigurationError(McpOpenApiMessages.parserMissing());
    throw error;
  }
}
