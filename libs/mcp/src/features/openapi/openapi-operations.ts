import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import type { JsonSchema } from '../../core/json-schema.types.js';
import type { McpToolAnnotations } from '../tools/mcp-tool-options.interface.js';
import { methodNameToToolName, normalizeToolName } from '../tools/tool-name.js';
import type { McpOpenApiSelection, McpOpenApiSource } from '../../options/mcp-openapi-options.interface.js';
import { McpOpenApiMessages } from './openapi.messages.js';
import { OpenApiSchemaTooLargeError, toolSchema } from './openapi-schema.js';
import { derefObject, OpenApiReferenceError } from './openapi-refs.js';
import { VERB_HINTS } from '../routes/route-metadata.js';

/** The verbs an OpenAPI path item may hold (TRACE aside: nothing for a tool in it). */
const VERBS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;
export type OpenApiVerb = Uppercase<(typeof VERBS)[number]>;

/** Headers a document may not describe as parameters (OpenAPI 3.1 §4.8.12.1): the request sets them. */
const RESERVED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/** Where one argument goes in the request. */
export interface OpenApiArgument {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header' | 'body-property' | 'body';
}

/** One operation as a tool: its name, schemas, and how its arguments make the request. */
export interface OpenApiOperationPlan {
  readonly name: string;
  /** `OpenAPI "helpdesk" createTicket (POST /tickets)`, for messages and logs. */
  readonly site: string;
  readonly verb: OpenApiVerb;
  /** The path template (`/tickets/{id}`). */
  readonly path: string;
  readonly description: string;
  readonly annotations?: McpToolAnnotations;
  readonly inputSchema: JsonSchema;
  /** The 2xx JSON response's schema: the success envelope's `data`. */
  readonly outputSchema?: JsonSchema;
  readonly arguments: readonly OpenApiArgument[];
}

/** The tools of a document, and the operations it has that cannot be tools (each with why). */
export interface OpenApiPlans {
  readonly plans: OpenApiOperationPlan[];
  readonly skipped: { site: string; reason: string }[];
}

type Node = Record<string, unknown>;
const asNode = (value: unknown): Node => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Node) : {});
/** A parameter, body, response or schema object of the operation's document, its `$ref` followed. */
const deref = (operation: Pick<Operation, 'document'>, value: unknown): Node => asNode(derefObject(operation.document, value));
const isJsonMedia = (type: string) => /^application\/(?:[\w.-]+\+)?json\b/i.test(type.trim());

/** The JSON media type object of a `content` map (a body's, a response's, a parameter's), if it has one. */
function jsonMedia(content: unknown): Node | undefined {
  const media = asNode(content);
  const type = Object.keys(media).find(isJsonMedia);
  return type === undefined ? undefined : asNode(media[type]);
}

interface Operation {
  readonly document: Node;
  readonly verb: OpenApiVerb;
  readonly path: string;
  readonly node: Node;
  readonly pathParameters: unknown[];
  readonly baseName: string;
  readonly site: string;
}

/**
 * The operations of a dereferenced OpenAPI 3.1 document picked by the source's `include` and `exclude`, as tool plans:
 * the name from `operationId` in snake_case (`createTicket` → `create_ticket`; without one, the verb and path), the
 * source's `name` before it; path, query and header parameters and the JSON body's properties flattened into one
 * `inputSchema` (a body that is not an object is the argument `body`); the 2xx JSON response as the output.
 */
export function openApiPlans(document: Node, source: McpOpenApiSource, label: string): OpenApiPlans {
  let operations: Operation[];
  try {
    operations = listOperations(document, source.name === undefined ? label : `"${source.name}"`);
  } catch (error) {
    throw error instanceof OpenApiReferenceError ? new McpConfigurationError(McpOpenApiMessages.invalid(label, error.message)) : error;
  }
  checkSelection(operations, source.include, 'include', label);
  checkSelection(operations, source.exclude, 'exclude', label);
  const plans: OpenApiOperationPlan[] = [];
  const skipped: OpenApiPlans['skipped'] = [];
  for (const operation of operations) {
    if (source.include && !selects(source.include, operation)) continue;
    if (source.exclude && selects(source.exclude, operation)) continue;
    try {
      const unsupported = unsupportedReason(operation);
      if (unsupported) skipped.push({ site: operation.site, reason: unsupported });
      else plans.push(planOf(operation, source.name));
    } catch (error) {
      if (error instanceof OpenApiReferenceError)
        throw new McpConfigurationError(McpOpenApiMessages.invalid(label, `${operation.site}: ${error.message}`));
      throw error;
    }
  }
  return { plans, skipped };
}

function listOperations(document: Node, label: string): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(asNode(document.paths))) {
    const pathItem = asNode(derefObject(document, item));
    for (const verb of VERBS) {
      if (!(verb in pathItem)) continue;
      const node = asNode(derefObject(document, pathItem[verb]));
      const operationId = typeof node.operationId === 'string' && node.operationId !== '' ? node.operationId : undefined;
      const baseName = operationId ? methodNameToToolName(operationId) : `${verb}_${path}`;
      const VERB = verb.toUpperCase() as OpenApiVerb;
      operations.push({
        document,
        verb: VERB,
        path,
        node,
        pathParameters: Array.isArray(pathItem.parameters) ? pathItem.parameters : [],
        baseName: normalizeToolName(baseName).replace(/^_|_$/g, ''),
        site: `OpenAPI ${label} ${operationId ?? ''}${operationId ? ' ' : ''}(${VERB} ${path})`,
      });
    }
  }
  return operations;
}

const tagsOf = (operation: Operation): string[] =>
  Array.isArray(operation.node.tags) ? operation.node.tags.filter((tag): tag is string => typeof tag === 'string') : [];

function selects(selection: McpOpenApiSelection, operation: Operation): boolean {
  const id = operation.node.operationId;
  return (
    tagsOf(operation).some((tag) => selection.tags?.includes(tag)) ||
    (selection.operations ?? []).some((entry) => entry === id || entry === operation.baseName)
  );
}

/** Every tag and operation a selection names must be in the document: a typo would silently pick nothing. */
function checkSelection(operations: readonly Operation[], selection: McpOpenApiSelection | undefined, option: string, label: string): void {
  for (const tag of selection?.tags ?? []) {
    if (!operations.some((operation) => tagsOf(operation).includes(tag)))
      throw new McpConfigurationError(McpOpenApiMessages.unknownSelection(label, `${option}.tags`, tag));
  }
  for (const entry of selection?.operations ?? []) {
    if (!operations.some((operation) => operation.node.operationId === entry || operation.baseName === entry))
      throw new McpConfigurationError(McpOpenApiMessages.unknownSelection(label, `${option}.operations`, entry));
  }
}

/** The parameters of an operation: the path item's, overridden by the operation's of the same name and place. */
function parametersOf(operation: Operation): Node[] {
  const own = Array.isArray(operation.node.parameters) ? operation.node.parameters.map((parameter) => deref(operation, parameter)) : [];
  const key = (parameter: Node) => `${String(parameter.in)}:${String(parameter.name)}`;
  const ownKeys = new Set(own.map(key));
  return [
    ...operation.pathParameters.map((parameter) => deref(operation, parameter)).filter((parameter) => !ownKeys.has(key(parameter))),
    ...own,
  ];
}

function jsonBodyOf(operation: Operation): { schema: Node; required: boolean } | undefined {
  const body = deref(operation, operation.node.requestBody);
  const media = jsonMedia(body.content);
  return media && { schema: deref(operation, media.schema), required: body.required === true };
}

function unsupportedReason(operation: Operation): string | undefined {
  const body = deref(operation, operation.node.requestBody);
  const types = Object.keys(asNode(body.content));
  if (types.length > 0 && !types.some(isJsonMedia)) return `its request body is ${types.join(' or ')}, not JSON`;
  const cookie = parametersOf(operation).find((parameter) => parameter.in === 'cookie' && parameter.required === true);
  if (cookie) return `it requires the cookie ${String(cookie.name)}`;
  return undefined;
}

const PLACE_NAMES: Record<OpenApiArgument['in'], string> = {
  path: 'path parameter',
  query: 'query parameter',
  header: 'header parameter',
  'body-property': 'body property',
  body: 'request body',
};

/** One argument before its schema is converted: where it goes, the document's schema, and what the tool adds to it. */
interface ArgumentPart extends OpenApiArgument {
  readonly schema: unknown;
  readonly required: boolean;
  readonly description?: string;
}

function planOf(operation: Operation, prefix: string | undefined): OpenApiOperationPlan {
  const parts: ArgumentPart[] = [];
  const add = (part: ArgumentPart) => {
    const taken = parts.find((argument) => argument.name === part.name);
    if (taken)
      throw new McpConfigurationError(
        McpOpenApiMessages.argumentClash(operation.site, part.name, PLACE_NAMES[taken.in], PLACE_NAMES[part.in]),
      );
    parts.push(part);
  };
  for (const parameter of parametersOf(operation)) {
    const place = parameter.in;
    if (place !== 'path' && place !== 'query' && place !== 'header') continue;
    const name = String(parameter.name);
    if (place === 'header' && RESERVED_HEADERS.has(name.toLowerCase())) continue;
    add({
      name,
      in: place,
      schema: parameter.schema ?? jsonMedia(parameter.content)?.schema ?? {},
      required: place === 'path' || parameter.required === true,
      ...(typeof parameter.description === 'string' && { description: parameter.description }),
    });
  }
  const body = jsonBodyOf(operation);
  if (body) {
    const bodyProperties = asNode(body.schema.properties);
    const flat = Object.keys(bodyProperties).length > 0 && (body.schema.type === undefined || body.schema.type === 'object');
    if (flat) {
      const bodyRequired = Array.isArray(body.schema.required) ? body.schema.required : [];
      for (const [name, schema] of Object.entries(bodyProperties)) {
        // A property the server sets (`id`, `createdAt`) is not the caller's to send.
        if (deref(operation, schema).readOnly === true) continue;
        add({ name, in: 'body-property', schema, required: body.required && bodyRequired.includes(name) });
      }
    } else {
      add({ name: 'body', in: 'body', schema: body.schema, required: body.required });
    }
  }
  const inputSchema = schemaOf(operation, 'its input schema', (convert) => {
    const properties: Record<string, JsonSchema> = {};
    for (const part of parts) {
      properties[part.name] = convert(part.schema);
      if (part.description !== undefined && properties[part.name].description === undefined)
        properties[part.name].description = part.description;
    }
    const required = parts.filter((part) => part.required).map((part) => part.name);
    return { type: 'object', properties, ...(required.length > 0 && { required }) };
  });
  const success = successSchemaOf(operation);
  const outputSchema =
    success === undefined ? undefined : schemaOf(operation, 'its output schema (of the 2xx response)', (convert) => convert(success));
  const annotations = VERB_HINTS[operation.verb];
  return {
    name: prefix === undefined ? operation.baseName : `${normalizeToolName(prefix)}_${operation.baseName}`,
    site: operation.site,
    verb: operation.verb,
    path: operation.path,
    description: descriptionOf(operation),
    ...(annotations && { annotations: { ...annotations } }),
    inputSchema,
    ...(outputSchema && { outputSchema }),
    arguments: parts.map(({ name, in: place }) => ({ name, in: place })),
  };
}

/** A tool schema of the operation (see `toolSchema`); one too large even under `$defs` fails the boot, naming it. */
function schemaOf(operation: Operation, which: string, build: Parameters<typeof toolSchema>[1]): JsonSchema {
  try {
    return toolSchema(operation.document, build);
  } catch (error) {
    if (error instanceof OpenApiSchemaTooLargeError)
      throw new McpConfigurationError(McpOpenApiMessages.schemaTooLarge(operation.site, `${which} ${error.message}`));
    throw error;
  }
}

/** The summary and description, else the verb and path. */
function descriptionOf(operation: Operation): string {
  const texts = [operation.node.summary, operation.node.description].filter(
    (text): text is string => typeof text === 'string' && text.trim() !== '',
  );
  return texts.length > 0 ? texts.join('\n\n') : `${operation.verb} ${operation.path}`;
}

/** The document's schema of the first 2xx response with a JSON body (200 first), if any. */
function successSchemaOf(operation: Operation): unknown {
  const responses = asNode(operation.node.responses);
  const codes = Object.keys(responses)
    .filter((code) => /^2(\d\d|XX)$/i.test(code))
    .sort();
  for (const code of codes) {
    const schema = jsonMedia(deref(operation, responses[code]).content)?.schema;
    if (schema !== undefined) return schema;
  }
  return undefined;
}
