import { MCP_ERROR_CODES, isRetryableByDefault } from '../errors/error-codes.js';
import { envelopeToCallToolResult, McpContent, McpEnvelopeResult, McpRawResult, McpResult } from './mcp-result.js';
import { errorBody, McpToolError } from '../errors/mcp-tool.error.js';
import type { McpEnvelope } from './envelope.types.js';

describe('McpResult', () => {
  it('success wraps data in a success envelope', () => {
    const result = McpResult.success({ temperature: 21 });
    expect(result).toBeInstanceOf(McpEnvelopeResult);
    expect(result.envelope).toEqual({ status: 'success', data: { temperature: 21 } });
    expect(Object.keys(result.envelope)).toEqual(['status', 'data']);
  });

  it('success keeps falsy data as is', () => {
    expect(McpResult.success(0).envelope).toEqual({ status: 'success', data: 0 });
    expect(McpResult.success(null).envelope).toEqual({ status: 'success', data: null });
    expect(McpResult.success('').envelope).toEqual({ status: 'success', data: '' });
  });

  it('error builds exactly {code, message, retryable}', () => {
    const { envelope } = McpResult.error('CITY_NOT_FOUND', 'Unknown city');
    expect(envelope).toEqual({ status: 'error', error: { code: 'CITY_NOT_FOUND', message: 'Unknown city', retryable: false } });
    expect(Object.keys((envelope as { error: object }).error)).toEqual(['code', 'message', 'retryable']);
  });

  it('error with fields and retryAfterMs uses the wire names', () => {
    const { envelope } = McpResult.error('RATE_LIMITED', 'Slow down', { fields: ['city'], retryAfterMs: 1500 });
    expect(envelope).toEqual({
      status: 'error',
      error: { code: 'RATE_LIMITED', message: 'Slow down', retryable: true, fields: ['city'], retry_after_ms: 1500 },
    });
    expect('retryAfterMs' in (envelope as { error: object }).error).toBe(false);
  });

  it('error honours an explicit retryable over the catalogue', () => {
    expect(McpResult.error('TIMEOUT', 'x', { retryable: false }).envelope).toMatchObject({ error: { retryable: false } });
    expect(McpResult.error('MY_CODE', 'x', { retryable: true }).envelope).toMatchObject({ error: { retryable: true } });
  });

  it('error omits an empty fields list', () => {
    const { envelope } = McpResult.error('VALIDATION_ERROR', 'bad', { fields: [] });
    expect(envelope).toEqual({ status: 'error', error: { code: 'VALIDATION_ERROR', message: 'bad', retryable: false } });
  });

  it('error keeps retry_after_ms 0', () => {
    expect(McpResult.error('RATE_LIMITED', 'now', { retryAfterMs: 0 }).envelope).toMatchObject({ error: { retry_after_ms: 0 } });
  });

  it('pending builds {status: pending, data: {job_id, poll_url, estimated_seconds}}', () => {
    const { envelope } = McpResult.pending({ job_id: 'job-1', poll_url: '/jobs/job-1', estimated_seconds: 30 });
    expect(envelope).toEqual({ status: 'pending', data: { job_id: 'job-1', poll_url: '/jobs/job-1', estimated_seconds: 30 } });
  });

  it('raw passes the CallToolResult through untouched', () => {
    const raw = { content: [McpContent.text('hi')], _meta: { a: 1 } };
    const result = McpResult.raw(raw);
    expect(result).toBeInstanceOf(McpRawResult);
    expect(result.result).toBe(raw);
  });
});

describe('envelopeToCallToolResult', () => {
  it.each<[string, McpEnvelope]>([
    ['success', { status: 'success', data: { a: 1, b: [1, 2] } }],
    ['pending', { status: 'pending', data: { job_id: 'j', poll_url: 'u' } }],
  ])('%s: text is the JSON of the envelope, structuredContent the same object, isError false', (_label, envelope) => {
    const result = envelopeToCallToolResult(envelope);
    expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(envelope) }]);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(envelope);
    expect(result.structuredContent).toBe(envelope);
    expect(result.isError).toBe(false);
  });

  it('error: isError true', () => {
    const envelope: McpEnvelope = { status: 'error', error: { code: 'X', message: 'm', retryable: false } };
    const result = envelopeToCallToolResult(envelope);
    expect(result).toEqual({
      content: [{ type: 'text', text: '{"status":"error","error":{"code":"X","message":"m","retryable":false}}' }],
      structuredContent: envelope,
      isError: true,
    });
  });

  it('success text is exactly the documented JSON', () => {
    const result = envelopeToCallToolResult({ status: 'success', data: null });
    expect(result.content[0]).toEqual({ type: 'text', text: '{"status":"success","data":null}' });
  });
});

describe('McpToolError', () => {
  it('is an Error with name, code and message', () => {
    const error = new McpToolError('CITY_NOT_FOUND', 'Unknown city "Atlantis"');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('McpToolError');
    expect(error.code).toBe('CITY_NOT_FOUND');
    expect(error.message).toBe('Unknown city "Atlantis"');
  });

  it.each([
    ['TIMEOUT', true],
    ['RATE_LIMITED', true],
    ['VALIDATION_ERROR', false],
    ['INTERNAL_ERROR', false],
    ['FORBIDDEN', false],
    ['NOT_FOUND', false],
    ['UNAUTHORIZED', false],
    ['CANCELLED', false],
    ['CITY_NOT_FOUND', false],
    ['SOMETHING_ELSE', false],
  ])('%s is retryable=%s by default', (code, retryable) => {
    expect(new McpToolError(code, 'm').retryable).toBe(retryable);
    expect(new McpToolError(code, 'm').toErrorBody().retryable).toBe(retryable);
  });

  it('explicit retryable wins', () => {
    expect(new McpToolError('TIMEOUT', 'm', { retryable: false }).retryable).toBe(false);
    expect(new McpToolError('CITY_NOT_FOUND', 'm', { retryable: true }).retryable).toBe(true);
  });

  it('toErrorBody carries fields and retry_after_ms', () => {
    const error = new McpToolError('RATE_LIMITED', 'Too many calls', { fields: ['a', 'b'], retryAfterMs: 2000 });
    expect(error.toErrorBody()).toEqual({
      code: 'RATE_LIMITED',
      message: 'Too many calls',
      retryable: true,
      fields: ['a', 'b'],
      retry_after_ms: 2000,
    });
  });

  it('toErrorBody omits unset members', () => {
    expect(new McpToolError('NOT_FOUND', 'gone').toErrorBody()).toEqual({ code: 'NOT_FOUND', message: 'gone', retryable: false });
  });

  it('errorBody orders members code, message, retryable, fields, retry_after_ms', () => {
    expect(Object.keys(errorBody('A', 'b', { retryAfterMs: 1, fields: ['x'], retryable: true }))).toEqual([
      'code',
      'message',
      'retryable',
      'fields',
      'retry_after_ms',
    ]);
  });
});

describe('MCP_ERROR_CODES', () => {
  it('only TIMEOUT, RATE_LIMITED, QUOTA_EXCEEDED and UNAVAILABLE are retryable', () => {
    const retryable = Object.entries(MCP_ERROR_CODES)
      .filter(([, entry]) => entry.retryable)
      .map(([code]) => code)
      .sort();
    expect(retryable).toEqual(['QUOTA_EXCEEDED', 'RATE_LIMITED', 'TIMEOUT', 'UNAVAILABLE']);
  });

  it('isRetryableByDefault follows the catalogue and is false for domain codes', () => {
    expect(isRetryableByDefault('TIMEOUT')).toBe(true);
    expect(isRetryableByDefault('FORBIDDEN')).toBe(false);
    expect(isRetryableByDefault('CITY_NOT_FOUND')).toBe(false);
    expect(isRetryableByDefault('toString')).toBe(false);
    expect(isRetryableByDefault('__proto__')).toBe(false);
  });

  it('maps codes to HTTP statuses', () => {
    expect(MCP_ERROR_CODES.FORBIDDEN.httpStatus).toBe(403);
    expect(MCP_ERROR_CODES.RATE_LIMITED.httpStatus).toBe(429);
    expect(MCP_ERROR_CODES.PAYLOAD_TOO_LARGE.httpStatus).toBe(413);
    expect(MCP_ERROR_CODES.TIMEOUT.httpStatus).toBe(504);
  });
});

describe('McpContent', () => {
  it('text', () => {
    expect(McpContent.text('hello')).toEqual({ type: 'text', text: 'hello' });
  });

  it('image encodes bytes as base64', () => {
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00]);
    expect(McpContent.image(bytes, 'image/png')).toEqual({ type: 'image', data: 'iVBOR/8A', mimeType: 'image/png' });
  });

  it('image takes a string as already base64', () => {
    expect(McpContent.image('AAAA', 'image/gif')).toEqual({ type: 'image', data: 'AAAA', mimeType: 'image/gif' });
  });

  it('audio encodes a Buffer (a Uint8Array) as base64', () => {
    expect(McpContent.audio(Buffer.from('hello'), 'audio/wav')).toEqual({ type: 'audio', data: 'aGVsbG8=', mimeType: 'audio/wav' });
  });

  it('audio encodes only the view of a sliced Uint8Array', () => {
    const backing = new Uint8Array([1, 2, 3, 104, 105, 4]);
    expect(McpContent.audio(backing.subarray(3, 5), 'audio/ogg')).toEqual({
      type: 'audio',
      data: Buffer.from('hi').toString('base64'),
      mimeType: 'audio/ogg',
    });
  });

  it('resourceLink', () => {
    expect(McpContent.resourceLink({ uri: 'file:///a.txt', name: 'a.txt', mimeType: 'text/plain' })).toEqual({
      type: 'resource_link',
      uri: 'file:///a.txt',
      name: 'a.txt',
      mimeType: 'text/plain',
    });
  });

  it('resource with text and with blob', () => {
    expect(McpContent.resource({ uri: 'mem://x', text: 'body' })).toEqual({ type: 'resource', resource: { uri: 'mem://x', text: 'body' } });
    expect(McpContent.resource({ uri: 'mem://y', blob: 'AQI=', mimeType: 'application/octet-stream' })).toEqual({
      type: 'resource',
      resource: { uri: 'mem://y', blob: 'AQI=', mimeType: 'application/octet-stream' },
    });
  });
});
