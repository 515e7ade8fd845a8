import 'reflect-metadata';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Min, ValidateNested } from 'class-validator';
import { DtoSchemaFactory } from './dto-schema.factory.js';
import type { JsonSchema } from '../../../core/json-schema.types.js';
import { envelopeOutputSchema } from './envelope-output-schema.js';
import { envelopeToCallToolResult, McpResult } from '../../../core/results/mcp-result.js';
import { McpToolError } from '../../../core/errors/mcp-tool.error.js';
import type { McpEnvelope } from '../../../core/results/envelope.types.js';

class CityDto {
  @IsString()
  name: string;
}

class ReportDto {
  @ValidateNested()
  @Type(() => CityDto)
  city: CityDto;

  @IsInt()
  @Min(0)
  humidity: number;

  @IsOptional()
  @IsString()
  note?: string;
}

class TreeNodeDto {
  @IsString()
  label: string;

  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => TreeNodeDto)
  children?: TreeNodeDto[];
}

const dataSchema = new DtoSchemaFactory().forClass(ReportDto);
const goodData = { city: { name: 'Paris' }, humidity: 40 };

function compile(schema: JsonSchema) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  return ajv.compile(schema);
}

describe('envelopeOutputSchema', () => {
  const schema = envelopeOutputSchema(dataSchema, { pending: false });
  const validate = compile(schema);
  const withPending = compile(envelopeOutputSchema(dataSchema, { pending: true }));

  it('lists every envelope member at the root (typed clients build their class from the root properties)', () => {
    expect(schema.type).toBe('object');
    expect(schema.required).toEqual(['status']);
    expect(Object.keys(schema.properties as JsonSchema)).toEqual(['status', 'data', 'error']);
    expect((schema.properties as JsonSchema).status).toEqual({ type: 'string', enum: ['success', 'error'] });
    expect((envelopeOutputSchema(dataSchema, { pending: true }).properties as JsonSchema).status).toEqual({
      type: 'string',
      enum: ['success', 'error', 'pending'],
    });
    // A root oneOf/anyOf is what FastMCP's schema-to-class conversion ignores, losing `data`.
    for (const options of [{ pending: false }, { pending: true }]) {
      const built = envelopeOutputSchema(dataSchema, options);
      expect(built).not.toHaveProperty('oneOf');
      expect(built).not.toHaveProperty('anyOf');
    }
  });

  it('embeds the DTO schema as the data (next to the pending data for job tools)', () => {
    expect((schema.properties as JsonSchema).data).toEqual(dataSchema);
    const pendingData = (envelopeOutputSchema(dataSchema, { pending: true }).properties as JsonSchema).data as JsonSchema;
    expect((pendingData.anyOf as JsonSchema[])[0]).toEqual(dataSchema);
  });

  describe('accepts every envelope the runner can produce', () => {
    it.each<[string, McpEnvelope]>([
      ['success with DTO-conforming data', McpResult.success(goodData).envelope],
      ['success with optional members', McpResult.success({ ...goodData, note: 'dry' }).envelope],
      ['error without fields', McpResult.error('CITY_NOT_FOUND', 'Unknown city').envelope],
      ['error with fields', McpResult.error('VALIDATION_ERROR', 'bad', { fields: ['city.name', 'humidity'] }).envelope],
      ['error with retry_after_ms', McpResult.error('RATE_LIMITED', 'slow', { retryAfterMs: 1000 }).envelope],
      ['error with retry_after_ms 0', McpResult.error('RATE_LIMITED', 'slow', { retryAfterMs: 0 }).envelope],
      [
        'an McpToolError body',
        { status: 'error', error: new McpToolError('TIMEOUT', 't', { fields: ['x'], retryAfterMs: 5 }).toErrorBody() },
      ],
      [
        'the INTERNAL_ERROR envelope',
        {
          status: 'error',
          error: { code: 'INTERNAL_ERROR', message: 'The tool failed unexpectedly; the error was logged on the server.', retryable: false },
        },
      ],
    ])('%s', (_label, envelope) => {
      expect(validate(envelope)).toBe(true);
      expect(withPending(envelope)).toBe(true);
      // What SDK clients actually validate: structuredContent.
      expect(validate(envelopeToCallToolResult(envelope).structuredContent)).toBe(true);
    });

    it('pending only when pending: true', () => {
      const pending = McpResult.pending({ job_id: 'job-1', poll_url: '/jobs/job-1', estimated_seconds: 30 }).envelope;
      expect(withPending(pending)).toBe(true);
      expect(withPending(McpResult.pending({ job_id: 'j', poll_url: 'u', progress: 1, total: 2, message: 'half' }).envelope)).toBe(true);
      // Over stdio a pending job has no poll_url: there is no HTTP route to poll.
      expect(withPending({ status: 'pending', data: { job_id: 'j' } })).toBe(true);
      expect(validate(pending)).toBe(false);
    });
  });

  describe('rejects malformed envelopes', () => {
    it.each<[string, unknown]>([
      ['success with wrong data type', { status: 'success', data: 'not an object' }],
      ['success with a wrong member type', { status: 'success', data: { city: { name: 'Paris' }, humidity: 'high' } }],
      ['success missing a required member', { status: 'success', data: { city: { name: 'Paris' } } }],
      ['success with a nested member of the wrong type', { status: 'success', data: { city: { name: 1 }, humidity: 1 } }],
      ['success with an unknown member', { status: 'success', data: { ...goodData, extra: 1 } }],
      ['success without data', { status: 'success' }],
      ["status 'weird'", { status: 'weird', data: goodData }],
      ['no status', { data: goodData }],
      ['error without code', { status: 'error', error: { message: 'm', retryable: false } }],
      ['error without retryable', { status: 'error', error: { code: 'X', message: 'm' } }],
      ['error with non-string fields', { status: 'error', error: { code: 'X', message: 'm', retryable: false, fields: [1] } }],
      ['error with negative retry_after_ms', { status: 'error', error: { code: 'X', message: 'm', retryable: true, retry_after_ms: -1 } }],
      [
        'error with fractional retry_after_ms',
        { status: 'error', error: { code: 'X', message: 'm', retryable: true, retry_after_ms: 1.5 } },
      ],
      ['error without error body', { status: 'error' }],
      ['not an object', 'success'],
    ])('%s', (_label, envelope) => {
      expect(validate(envelope)).toBe(false);
      expect(withPending(envelope)).toBe(false);
    });

    it('a job tool: success data must match the DTO, pending data the job handle', () => {
      expect(withPending({ status: 'success', data: { job_id: 'j', poll_url: 'u' } })).toBe(false);
      expect(withPending({ status: 'pending', data: goodData })).toBe(false);
      expect(withPending({ status: 'pending' })).toBe(false);
    });

    it('pending without job_id, or with negative estimated_seconds', () => {
      expect(withPending({ status: 'pending', data: { poll_url: 'u' } })).toBe(false);
      expect(withPending({ status: 'pending', data: { job_id: 'j', poll_url: 'u', estimated_seconds: -1 } })).toBe(false);
    });
  });

  it('a recursive DTO (with $defs) compiles and validates nested data', () => {
    const recursive = envelopeOutputSchema(new DtoSchemaFactory().forClass(TreeNodeDto), { pending: false });
    const check = compile(recursive);
    expect(check(McpResult.success({ label: 'root', children: [{ label: 'a', children: [{ label: 'b' }] }] }).envelope)).toBe(true);
    expect(check(McpResult.success({ label: 'root', children: [{ label: 'a', children: [{ label: 3 }] }] }).envelope)).toBe(false);
    expect(check(McpResult.error('X', 'm').envelope)).toBe(true);
  });

  it('works with a data schema that is not an object (e.g. the empty-args schema)', () => {
    const open = compile(envelopeOutputSchema({ type: 'string' }, { pending: false }));
    expect(open({ status: 'success', data: 'text' })).toBe(true);
    expect(open({ status: 'success', data: 1 })).toBe(false);
  });
});
