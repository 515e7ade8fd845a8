import type { IncomingMessage } from 'node:http';
import { routeMessage } from '../../eras/era-claim.js';
import { META } from '../../core/rev-2026-07-28.constants.js';
import { classifyHttpPost } from './http-era.classifier.js';

/** Node exposes header names in lower case; a repeated header arrives as an array. */
const post = (headers: Record<string, string | string[]>) => ({ headers }) as unknown as IncomingMessage;
const body = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'greet', _meta: { [META.protocolVersion]: '2026-07-28', [META.clientCapabilities]: {} } },
};

describe('the HTTP era classifier', () => {
  it('reads the revision header as the channel revision and the 2026 headers, trimmed; nothing is pinned', () => {
    const claim = classifyHttpPost(
      post({ 'mcp-protocol-version': ' 2026-07-28 ', 'mcp-method': 'tools/call\t', 'mcp-name': ' greet ' }),
      body,
    );
    expect(claim).toEqual({
      message: body,
      channelRevision: '2026-07-28',
      pinned: false,
      headers: { protocolVersion: '2026-07-28', method: 'tools/call', name: ' greet ' },
    });
  });

  it('takes the first of repeated headers and leaves absent ones undefined', () => {
    const claim = classifyHttpPost(post({ 'mcp-protocol-version': ['2026-07-28', '2025-11-25'] }), body);
    expect(claim.channelRevision).toBe('2026-07-28');
    expect(claim.headers).toEqual({ protocolVersion: '2026-07-28', method: undefined, name: undefined });
  });

  it('feeds the router: the same body is served, or refused for a missing header', () => {
    expect(
      routeMessage(classifyHttpPost(post({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'greet' }), body))
        .era,
    ).toBe('2026-07-28');
    expect(routeMessage(classifyHttpPost(post({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' }), body))).toMatchObject({
      era: 'refused',
      refusal: { code: -32020 },
    });
    expect(
      routeMessage(classifyHttpPost(post({ 'mcp-protocol-version': '2025-11-25' }), { jsonrpc: '2.0', id: 2, method: 'tools/list' })).era,
    ).toBe('2025-11-25');
  });
});
