import type { McpRemoteTool } from '../../client/mcp-client.types.js';
import { isPlainObject } from '../../core/plain-object.js';

/** The hints of MCP's `ToolAnnotations`, each a boolean when present. */
const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'];

/**
 * What MCP clients require of a tool schema (the official SDK's `tools/list` result type): an object schema, its
 * `properties` an object and `required` a list of names. One tool breaking it fails a client's whole `tools/list`.
 */
function isObjectSchema(schema: unknown): boolean {
  if (!isPlainObject(schema) || schema.type !== 'object') return false;
  const { properties, required } = schema;
  return (
    (properties === undefined || isPlainObject(properties)) &&
    (required === undefined || (Array.isArray(required) && required.every((name) => typeof name === 'string')))
  );
}

/**
 * Why an upstream's tool cannot be served as it is (undefined when it can): a descriptor the gateway relayed as-is
 * would make every client's `tools/list` fail, not just hide the one tool.
 */
export function toolDescriptorProblem(remote: McpRemoteTool): string | undefined {
  if (remote.inputSchema !== undefined && !isObjectSchema(remote.inputSchema)) return 'its inputSchema is not an object schema';
  if (remote.outputSchema !== undefined && !isObjectSchema(remote.outputSchema)) return 'its outputSchema is not an object schema';
  const { annotations } = remote;
  if (annotations === undefined) return undefined;
  const sound =
    isPlainObject(annotations) &&
    (annotations.title === undefined || typeof annotations.title === 'string') &&
    HINTS.every((hint) => annotations[hint] === undefined || typeof annotations[hint] === 'boolean');
  return sound ? undefined : 'its annotations are not MCP tool annotations';
}
