import type { JsonSchema } from '../../../core/json-schema.types.js';

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
  required: ['job_id'],
};

/** Where the DTO's schema sits inside `data`'s `anyOf` for job tools, so the success rule can point at it. */
const SUCCESS_DATA_POINTER = '#/properties/data/anyOf/0';

/** `if` the envelope has this status, `then` these keywords apply. */
function whenStatus(status: string, then: JsonSchema): JsonSchema {
  return { if: { properties: { status: { const: status } }, required: ['status'] }, then };
}

/**
 * The `outputSchema` of a tool that declares an output DTO. SDK clients validate `structuredContent` against it
 * even when `isError` is true, so it must accept every envelope the tool can send: success with `data` typed by
 * the DTO, error, and (for long-running tools) pending.
 *
 * Every envelope member is listed under the root `properties` (`status`, `data`, `error`), and the rules that
 * depend on `status` sit in `allOf` `if`/`then` entries rather than in a root `oneOf`: typed clients that build a
 * class from the schema (FastMCP's `result.data`) read only the root properties, and with one `oneOf` branch per
 * envelope they kept `status` and dropped `data`.
 */
export function envelopeOutputSchema(dataSchemaWithDefs: JsonSchema, options: { pending: boolean }): JsonSchema {
  // `$defs` of a recursive DTO must sit at the root, where its `#/$defs/...` references point.
  const { $defs, ...dataSchema } = dataSchemaWithDefs;
  const statuses = options.pending ? ['success', 'error', 'pending'] : ['success', 'error'];
  const rules: JsonSchema[] = options.pending
    ? [
        whenStatus('success', { required: ['data'], properties: { data: { $ref: SUCCESS_DATA_POINTER } } }),
        whenStatus('error', { required: ['error'] }),
        whenStatus('pending', { required: ['data'], properties: { data: PENDING_DATA_SCHEMA } }),
      ]
    : [whenStatus('success', { required: ['data'] }), whenStatus('error', { required: ['error'] })];
  return {
    type: 'object',
    properties: {
      status: { type: 'string', enum: statuses },
      data: options.pending ? { anyOf: [dataSchema, PENDING_DATA_SCHEMA] } : dataSchema,
      error: ERROR_BODY_SCHEMA,
    },
    required: ['status'],
    allOf: rules,
    ...($defs !== undefined && { $defs }),
  };
}
