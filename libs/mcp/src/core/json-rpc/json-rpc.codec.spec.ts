import { classifyMessage, errorResponse, notification, parseErrorResponse, successResponse } from './json-rpc.codec.js';
import { JsonRpcErrorCode } from './json-rpc-error-codes.js';

describe('classifyMessage', () => {
  describe('requests', () => {
    it('classifies a request with a string id and keeps the params', () => {
      expect(classifyMessage({ jsonrpc: '2.0', id: 'a-1', method: 'tools/list', params: { cursor: 'x' } })).toEqual({
        kind: 'request',
        message: { jsonrpc: '2.0', id: 'a-1', method: 'tools/list', params: { cursor: 'x' } },
      });
    });

    it('keeps a numeric id as a number (exact type)', () => {
      const classified = classifyMessage({ jsonrpc: '2.0', id: 7, method: 'ping' });
      expect(classified.kind).toBe('request');
      expect(classified.kind === 'request' && classified.message.id).toBe(7);
      expect(classified.kind === 'request' && typeof classified.message.id).toBe('number');
    });

    it('accepts id 0 and the empty string as ids', () => {
      expect(classifyMessage({ jsonrpc: '2.0', id: 0, method: 'ping' })).toMatchObject({ kind: 'request', message: { id: 0 } });
      expect(classifyMessage({ jsonrpc: '2.0', id: '', method: 'ping' })).toMatchObject({ kind: 'request', message: { id: '' } });
    });

    it('leaves params undefined when absent', () => {
      const classified = classifyMessage({ jsonrpc: '2.0', id: 1, method: 'ping' });
      expect(classified).toEqual({ kind: 'request', message: { jsonrpc: '2.0', id: 1, method: 'ping', params: undefined } });
    });

    it('drops unknown top-level members from the message', () => {
      const classified = classifyMessage({ jsonrpc: '2.0', id: 1, method: 'ping', extra: true });
      expect(classified.kind === 'request' && Object.keys(classified.message).sort()).toEqual(['id', 'jsonrpc', 'method', 'params']);
    });
  });

  describe('notifications', () => {
    it('classifies a message without id as a notification', () => {
      expect(classifyMessage({ jsonrpc: '2.0', method: 'notifications/initialized' })).toEqual({
        kind: 'notification',
        message: { jsonrpc: '2.0', method: 'notifications/initialized', params: undefined },
      });
    });

    it('keeps notification params', () => {
      expect(classifyMessage({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } })).toEqual({
        kind: 'notification',
        message: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } },
      });
    });
  });

  describe('responses', () => {
    it('classifies a result response', () => {
      const value = { jsonrpc: '2.0', id: 4, result: {} };
      expect(classifyMessage(value)).toEqual({ kind: 'response', message: value });
    });

    it('classifies an error response', () => {
      const value = { jsonrpc: '2.0', id: 'x', error: { code: -1, message: 'no' } };
      expect(classifyMessage(value)).toEqual({ kind: 'response', message: value });
    });

    it('rejects a response with a null id', () => {
      expect(classifyMessage({ jsonrpc: '2.0', id: null, result: {} })).toMatchObject({ kind: 'invalid', id: null });
    });
  });

  describe('invalid messages', () => {
    it.each([
      ['null', null],
      ['a string', 'hello'],
      ['a number', 42],
      ['an array', [{ jsonrpc: '2.0', id: 1, method: 'ping' }]],
    ])('rejects %s with id null', (_label, value) => {
      expect(classifyMessage(value)).toEqual({ kind: 'invalid', id: null, reason: 'A JSON-RPC message must be an object' });
    });

    it('rejects a wrong jsonrpc version and keeps the readable id', () => {
      expect(classifyMessage({ jsonrpc: '1.0', id: 9, method: 'ping' })).toEqual({
        kind: 'invalid',
        id: 9,
        reason: 'jsonrpc must be "2.0"',
      });
    });

    it('rejects a missing jsonrpc member', () => {
      expect(classifyMessage({ id: 'q', method: 'ping' })).toEqual({ kind: 'invalid', id: 'q', reason: 'jsonrpc must be "2.0"' });
    });

    it('rejects an empty method and keeps the id', () => {
      expect(classifyMessage({ jsonrpc: '2.0', id: 5, method: '' })).toEqual({
        kind: 'invalid',
        id: 5,
        reason: 'method must be a non-empty string',
      });
    });

    it('rejects a non-string method', () => {
      expect(classifyMessage({ jsonrpc: '2.0', id: 5, method: 12 })).toMatchObject({ kind: 'invalid', id: 5 });
    });

    it.each([
      ['an array', [1, 2]],
      ['a string', 'p'],
      ['null', null],
      ['a number', 3],
    ])('rejects params that are %s', (_label, params) => {
      expect(classifyMessage({ jsonrpc: '2.0', id: 'p', method: 'ping', params })).toEqual({
        kind: 'invalid',
        id: 'p',
        reason: 'params must be an object',
      });
    });

    it('rejects a request with a null id (MCP forbids it) with id null', () => {
      expect(classifyMessage({ jsonrpc: '2.0', id: null, method: 'ping' })).toEqual({
        kind: 'invalid',
        id: null,
        reason: 'id must be a string or a number',
      });
    });

    it.each([
      ['a boolean', true],
      ['an object', { a: 1 }],
      ['NaN', Number.NaN],
      ['Infinity', Number.POSITIVE_INFINITY],
    ])('rejects a request whose id is %s', (_label, id) => {
      expect(classifyMessage({ jsonrpc: '2.0', id, method: 'ping' })).toMatchObject({ kind: 'invalid', id: null });
    });

    it('rejects an object that is neither request nor response', () => {
      expect(classifyMessage({ jsonrpc: '2.0', id: 3 })).toEqual({
        kind: 'invalid',
        id: 3,
        reason: 'Not a JSON-RPC request, notification or response',
      });
    });
  });
});

describe('response builders', () => {
  it('successResponse', () => {
    expect(successResponse('a', { ok: true })).toEqual({ jsonrpc: '2.0', id: 'a', result: { ok: true } });
  });

  it('errorResponse with an id and with null', () => {
    expect(errorResponse(1, { code: -32601, message: 'Method not found: x' })).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32601, message: 'Method not found: x' },
    });
    expect(errorResponse(null, { code: -32600, message: 'bad', data: { a: 1 } })).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'bad', data: { a: 1 } },
    });
  });

  it('parseErrorResponse is -32700 with id null', () => {
    const response = parseErrorResponse();
    expect(response.id).toBeNull();
    expect(response.error.code).toBe(JsonRpcErrorCode.PARSE_ERROR);
    expect(response.error.code).toBe(-32700);
    expect(response.jsonrpc).toBe('2.0');
  });

  it('notification with and without params', () => {
    expect(notification('notifications/progress', { progress: 1 })).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progress: 1 },
    });
    const bare = notification('notifications/tools/list_changed');
    expect(bare).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    expect('params' in bare).toBe(false);
  });
});

describe('JsonRpcErrorCode', () => {
  it('has the JSON-RPC 2.0 standard values', () => {
    expect(JsonRpcErrorCode).toMatchObject({
      PARSE_ERROR: -32700,
      INVALID_REQUEST: -32600,
      METHOD_NOT_FOUND: -32601,
      INVALID_PARAMS: -32602,
      INTERNAL_ERROR: -32603,
    });
  });
});
