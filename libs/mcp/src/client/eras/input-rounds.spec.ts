import { McpClientError } from '../mcp-client.error.js';
import { answerInputRequests, retryParams } from './input-rounds.js';

describe('answerInputRequests', () => {
  const requests = {
    user_name: { method: 'elicitation/create', params: { message: 'Name?' } },
    roots: { method: 'roots/list' },
  };

  it('answers each request under its key, in order', async () => {
    const seen: string[] = [];
    const answers = await answerInputRequests('tools/call', requests, async (method, params) => {
      seen.push(`${method}:${JSON.stringify(params)}`);
      return method === 'roots/list' ? { roots: [] } : { action: 'accept', content: { name: 'Ada' } };
    });
    expect(answers).toEqual({ user_name: { action: 'accept', content: { name: 'Ada' } }, roots: { roots: [] } });
    expect(seen).toEqual(['elicitation/create:{"message":"Name?"}', 'roots/list:undefined']);
  });

  it('is INPUT_REQUIRED without a handler or when the handler declines, naming what was asked', async () => {
    const none = await answerInputRequests('tools/call', requests, undefined).catch((error: unknown) => error);
    expect(none).toBeInstanceOf(McpClientError);
    expect(none).toMatchObject({ code: 'INPUT_REQUIRED', data: requests, message: expect.stringContaining('elicitation/create') });
    await expect(answerInputRequests('prompts/get', requests, async () => undefined)).rejects.toMatchObject({ code: 'INPUT_REQUIRED' });
  });

  it('is PROTOCOL for malformed requests, and nothing to answer for a requestState-only round', async () => {
    await expect(answerInputRequests('tools/call', [1], async () => ({}))).rejects.toMatchObject({ code: 'PROTOCOL' });
    await expect(answerInputRequests('tools/call', { a: { params: {} } }, async () => ({}))).rejects.toMatchObject({ code: 'PROTOCOL' });
    await expect(answerInputRequests('tools/call', undefined, undefined)).resolves.toBeUndefined();
  });
});

describe('retryParams', () => {
  it('sends the original params with this round’s answers and the state byte for byte', () => {
    expect(retryParams({ name: 't', arguments: { a: 1 } }, { k: { ok: true } }, 'opaque==')).toEqual({
      name: 't',
      arguments: { a: 1 },
      inputResponses: { k: { ok: true } },
      requestState: 'opaque==',
    });
    expect(retryParams({ name: 't' }, undefined, undefined)).toEqual({ name: 't' });
  });
});
