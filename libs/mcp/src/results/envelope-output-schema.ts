import type { JsonSchema } from '../schema/json-schema.types.js';

const ERROR_BODY_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    code: { type: 'string' },
    message: { type: 'string' },
    retryable: { type: 'boolean' },
    fields: { type: 'array', items: { type: 'string' } },
    retry_after_ms: { type: 'integer', minimum: 0 },
  },
  required: ['code', 'message', 'retryable'],
};

const PENDING_DATA_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    job_id: { type: 'string' },
    poll_url: { type: 'string' },
    estimated_seconds: { type: 'number', minimum: 0 },
    progress: { type: 'number' },
    total: { type: 'number' },
    message: { type: 'string' },
  },
  required: ['job_id', 'poll_url'],
};

/**
 * The `outputSchema` of a tool that declares an output DTO. SDK clients validate `structuredContent` against it
 * even when `isError` is true, so it must accept every envelope the tool can send: success with `data` typed by
 * the DTO, error, and (for long-running tools) pending.
 */
export function envelopeOutputSchema(dataSchemaWithDefs: JsonSchema, options: { pending: boolean }): JsonSchema {
  // `$defs` of a recursive DTO must sit at the root, where its `#/$defs/...` references point.
  const { $defs, ...dataSchema } = dataSchemaWithDefs;
  const branches: JsonSchema[] = [
    { properties: { status: { const: 'success' }, data: dataSchema }, required: ['status', 'data'] },
    { properties: { status: { const: 'error' }, error: ERROR_BODY_SCHEMA }, required: ['status', 'error'] },
  ];
  if (options.pending) {
    branches.push({ properties: { status: { const: 'pending' }, data: PENDING_DATA_SCHEMA }, required: ['status', 'data'] });
  }
  const statuses = options.pending ? ['success', 'error', 'pending'] : ['success', 'error'];
  return {
    type: 'object',
    properties: { status: { type: 'string', enum: statuses } },
    required: ['status'],
    oneOf: branches,
    ...($defs !== undefined && { $defs }),
  };
}
