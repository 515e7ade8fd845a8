import type { McpOpenApiSelection, McpOpenApiSource } from '../mcp-openapi-options.interface.js';
import { isPlainObject } from '../../core/plain-object.js';
import { group, invalidOption, list, optional, option, type McpOptionDeclaration } from '../option.builder.js';
import { checkHttpUrl, flag, given, positiveInteger, stringList } from '../option.values.js';
import { checkOutboundAuth } from './outbound-auth.options.js';

const SOURCE_NAME = /^[A-Za-z0-9_-]{1,32}$/;

/** `include` / `exclude` of one document: tags and operations, at least one of them named. */
const SELECTION = group<McpOpenApiSelection>()(
  { tags: stringList(), operations: stringList() },
  {
    object: '{ tags?, operations? }',
    finish: (selection, at) => {
      if (selection.tags.length + selection.operations.length === 0) throw invalidOption(at, 'must name at least one tag or operation');
      return selection;
    },
  },
);

/** One entry of `sources.openapi`: a document, where its requests go, and how they are authenticated and bounded. */
const OPENAPI_SOURCE = group<McpOpenApiSource>()(
  {
    name: option<string, string | undefined>((name, at) => {
      if (name !== undefined && (typeof name !== 'string' || !SOURCE_NAME.test(name)))
        throw invalidOption(at, 'must be 1 to 32 letters, digits, "_" or "-" (it prefixes the tool names)');
      return name;
    }),
    document: option<McpOpenApiSource['document'], McpOpenApiSource['document']>((document, at) => {
      const valid = (typeof document === 'string' && document !== '') || typeof document === 'function' || isPlainObject(document);
      if (!valid) throw invalidOption(at, 'must be a URL, a file path, the document object or a function returning it');
      return document!;
    }),
    baseUrl: option(checkHttpUrl),
    include: optional(SELECTION),
    exclude: optional(SELECTION),
    forwardAuthorization: flag(false),
    auth: option((value: unknown, at: string) => checkOutboundAuth(value, at)),
    headers: given<McpOpenApiSource['headers']>(),
    timeoutMs: positiveInteger(undefined),
    maxResponseBytes: positiveInteger(undefined),
  },
  {
    object: '{ document, name?, baseUrl?, include?, exclude?, auth?, forwardAuthorization?, headers?, timeoutMs?, maxResponseBytes? }',
    finish: (source, at) => {
      if (source.forwardAuthorization && source.auth !== undefined)
        throw invalidOption(`${at}.forwardAuthorization`, 'and auth both say what the API gets: keep one');
      if (source.headers !== undefined && typeof source.headers !== 'function' && !isPlainObject(source.headers))
        throw invalidOption(`${at}.headers`, 'must be an object of header values or a function of the caller returning one');
      return source as McpOpenApiSource;
    },
  },
);

const SOURCES = list(OPENAPI_SOURCE, 'must be an array of { document, name?, baseUrl?, ... }', {
  check: (sources, at) => {
    const names = sources.map((source) => source.name).filter((name) => name !== undefined);
    if (new Set(names).size !== names.length) throw invalidOption(at, 'gives two documents the same name (it prefixes their tools)');
  },
});

/** `sources.openapi`: OpenAPI documents whose operations are tools; `[]` when unset. */
export const MCP_OPENAPI_OPTIONS: McpOptionDeclaration<McpOpenApiSource[], McpOpenApiSource[]> = {
  ...SOURCES,
  resolve: (value, at, context) => SOURCES.resolve(value, at, context) ?? [],
};
