import 'reflect-metadata';
import { HttpException, type ArgumentsHost } from '@nestjs/common';
import type { Response } from 'express';
import { errorToEnvelope } from './execution/error-envelope.js';
import { McpHttpRefusal } from './transports/http/auth/mcp-http-refusal.exception.js';
import { McpHttpRefusalFilter } from './transports/http/auth/mcp-http-refusal.filter.js';
import { sendRefusal } from './transports/http/http-json-rpc.responses.js';
import { JsonRpcErrorCode } from './core/json-rpc/json-rpc-error-codes.js';
import {
  errorCodeForHttpStatus,
  isRetryableByDefault,
  MCP_ERROR_CODES,
  type McpBuiltInErrorCode,
  type McpErrorCodeSpec,
} from './core/errors/error-codes.js';
import { McpToolError } from './core/errors/mcp-tool.error.js';
import { McpQuotaExceededError } from './core/errors/quota-exceeded.error.js';
import { McpStoreUnavailableError } from './core/errors/store-unavailable.error.js';

const CODES = Object.keys(MCP_ERROR_CODES) as McpBuiltInErrorCode[];
const JSON_RPC_CODES = new Set<number>(Object.values(JsonRpcErrorCode));

/** A response that records what a transport writes. */
function recordingResponse() {
  const sent: { status?: number; headers: Record<string, string>; body?: Record<string, unknown> } = { headers: {} };
  const response = {
    headersSent: false,
    setHeader: (name: string, value: string) => void (sent.headers[name] = value),
    writeHead: (status: number, headers: Record<string, string | number>) => {
      sent.status = status;
      for (const [name, value] of Object.entries(headers)) sent.headers[name] = String(value);
    },
    end: (bytes?: Buffer) => void (sent.body = bytes ? (JSON.parse(bytes.toString('utf8')) as Record<string, unknown>) : undefined),
  };
  return { response: response as unknown as Response, sent };
}

function hostFor(response: Response): ArgumentsHost {
  return { switchToHttp: () => ({ getResponse: () => response }) } as unknown as ArgumentsHost;
}

describe('the error catalogue', () => {
  it.each(CODES)('%s has a JSON-RPC code, an HTTP status, a retryable flag and a message', (code) => {
    const spec: McpErrorCodeSpec = MCP_ERROR_CODES[code];
    expect(JSON_RPC_CODES.has(spec.jsonRpcCode)).toBe(true);
    expect(Number.isInteger(spec.httpStatus) && spec.httpStatus >= 400 && spec.httpStatus <= 599).toBe(true);
    expect(typeof spec.retryable).toBe('boolean');
    expect(spec.message()).toMatch(/\S/);
    expect(spec.message('the detail')).toMatch(/\S/);
    if (spec.retryAfterMs !== undefined) expect(spec.retryable).toBe(true);
  });

  it('lists each HTTP status an HttpException may carry once, and maps the others to REQUEST_REJECTED', () => {
    const statuses = CODES.map((code) => MCP_ERROR_CODES[code] as McpErrorCodeSpec).flatMap((spec) =>
      spec.fromHttpStatus === undefined ? [] : [spec.fromHttpStatus],
    );
    expect(new Set(statuses).size).toBe(statuses.length);
    expect(errorCodeForHttpStatus(403)).toBe('FORBIDDEN');
    expect(errorCodeForHttpStatus(408)).toBe('TIMEOUT');
    expect(errorCodeForHttpStatus(409)).toBe('CONFLICT');
    expect(errorCodeForHttpStatus(418)).toBe('REQUEST_REJECTED');
  });

  it('gives built-in codes their default retryable flag and domain codes false', () => {
    for (const code of CODES) expect(isRetryableByDefault(code)).toBe(MCP_ERROR_CODES[code].retryable);
    expect(isRetryableByDefault('CITY_NOT_FOUND')).toBe(false);
    expect(new McpToolError('RATE_LIMITED', 'slow down').retryable).toBe(true);
  });
});

describe('the HTTP status of a refusal comes from the catalogue', () => {
  it.each(CODES)('McpHttpRefusal(%s) carries the catalogue status, JSON-RPC code, flag and retry hint', (code) => {
    const spec: McpErrorCodeSpec = MCP_ERROR_CODES[code];
    const refusal = new McpHttpRefusal(code);
    expect(refusal).toMatchObject({
      status: spec.httpStatus,
      jsonRpcCode: spec.jsonRpcCode,
      retryable: spec.retryable,
      message: spec.message(),
    });
    expect(refusal.headers['Retry-After']).toBe(spec.retryAfterMs === undefined ? undefined : String(Math.ceil(spec.retryAfterMs / 1000)));
  });

  it.each(CODES)('sendRefusal(%s) writes the catalogue status and JSON-RPC code', (code) => {
    const { response, sent } = recordingResponse();
    sendRefusal(response, code, 'the detail', { id: 7 });
    expect(sent.status).toBe(MCP_ERROR_CODES[code].httpStatus);
    expect(sent.body).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: MCP_ERROR_CODES[code].jsonRpcCode, message: (MCP_ERROR_CODES[code] as McpErrorCodeSpec).message('the detail') },
    });
  });

  it('renders a store outage as UNAVAILABLE with the catalogue text, never the server-side message', () => {
    const { response, sent } = recordingResponse();
    new McpHttpRefusalFilter().catch(
      new McpStoreUnavailableError('Redis at 10.1.2.3:6379 is unavailable (ECONNREFUSED)'),
      hostFor(response),
    );
    const text = MCP_ERROR_CODES.UNAVAILABLE.message();
    expect(sent.status).toBe(MCP_ERROR_CODES.UNAVAILABLE.httpStatus);
    expect(sent.headers['Retry-After']).toBe('1');
    expect(sent.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: MCP_ERROR_CODES.UNAVAILABLE.jsonRpcCode,
        message: text,
        data: { status: 'error', error: { code: 'UNAVAILABLE', message: text, retryable: true, retry_after_ms: 1000 } },
      },
    });
  });

  it('renders a quota refusal as QUOTA_EXCEEDED with its own message and the catalogue status', () => {
    const { response, sent } = recordingResponse();
    new McpHttpRefusalFilter().catch(new McpQuotaExceededError('This tenant holds its maximum of sessions'), hostFor(response));
    expect(sent.status).toBe(MCP_ERROR_CODES.QUOTA_EXCEEDED.httpStatus);
    expect(sent.headers['Retry-After']).toBe('60');
    expect(sent.body?.error).toMatchObject({
      code: JsonRpcErrorCode.SERVER_ERROR,
      message: 'This tenant holds its maximum of sessions',
      data: { error: { code: 'QUOTA_EXCEEDED', retryable: true, retry_after_ms: 60_000 } },
    });
  });
});

describe('one UNAVAILABLE text', () => {
  it('is the same in a tool envelope and an HTTP refusal', () => {
    const { envelope, internal } = errorToEnvelope(new McpStoreUnavailableError('Redis at 10.1.2.3:6379 is unavailable'));
    expect(internal).toBe(false);
    expect(envelope.error).toEqual({
      code: 'UNAVAILABLE',
      message: MCP_ERROR_CODES.UNAVAILABLE.message(),
      retryable: true,
      retry_after_ms: 1000,
    });
  });

  it('is recognised by class, not by name: another error that calls itself McpStoreUnavailableError is internal', () => {
    const impostor = Object.assign(new Error('boom'), { name: 'McpStoreUnavailableError' });
    expect(errorToEnvelope(impostor)).toMatchObject({ internal: true, envelope: { error: { code: 'INTERNAL_ERROR' } } });
  });

  it('maps a 4xx HttpException through the catalogue', () => {
    expect(errorToEnvelope(new HttpException('Nope', 403)).envelope.error).toMatchObject({
      code: 'FORBIDDEN',
      message: 'Nope',
      retryable: false,
    });
    expect(errorToEnvelope(new HttpException('Later', 429)).envelope.error).toMatchObject({ code: 'RATE_LIMITED', retryable: true });
  });
});
