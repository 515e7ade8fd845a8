import { claimOf, routeMessage, type EraClaim, type McpEra } from './era-claim.js';
import { META } from '../core/rev-2026-07-28.constants.js';

const envelope = (version = '2026-07-28', extra: Record<string, unknown> = {}) => ({
  _meta: { [META.protocolVersion]: version, [META.clientCapabilities]: {}, ...extra },
});
/** An HTTP POST's claim as the HTTP classifier reads it (header names matched case-insensitively, values trimmed). */
const headers =
  (values: Record<string, string>) =>
  (message: unknown): EraClaim => {
    const header = (name: string) =>
      Object.entries(values)
        .find(([key]) => key.toLowerCase() === name)?.[1]
        ?.trim();
    const protocolVersion = header('mcp-protocol-version');
    return {
      message,
      channelRevision: protocolVersion,
      pinned: false,
      headers: {
        protocolVersion,
        method: header('mcp-method'),
        name: Object.entries(values).find(([key]) => key.toLowerCase() === 'mcp-name')?.[1],
      },
    };
  };
const routeHttpMessage = (body: unknown, claim: (message: unknown) => EraClaim) => routeMessage(claim(body));
const rev2026Headers = (method: string, extra: Record<string, string> = {}) =>
  headers({ 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': method, ...extra });
const refusal = (route: ReturnType<typeof routeMessage>) =>
  route.era === 'refused' ? { status: route.refusal.status, code: route.refusal.code, id: route.id } : route;
/** A stdio message's claim: the message and the era its connection is pinned to. */
const stdio = (message: unknown, pinned?: McpEra) => routeMessage({ message, channelRevision: pinned, pinned: pinned !== undefined });

describe('era router: one POST body over HTTP (dual-era rules)', () => {
  it('keeps claim-less traffic in 2025-11-25: initialize, requests, notifications, responses, batches', () => {
    for (const body of [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'srv-1', result: {} },
      [{ jsonrpc: '2.0', id: 1, method: 'ping' }],
      'not an object',
    ]) {
      expect(routeHttpMessage(body, headers({ 'MCP-Protocol-Version': '2025-06-18' }))).toEqual({
        era: '2025-11-25',
        opening: expect.any(Boolean),
        probe: false,
      });
    }
  });

  it('keeps a claim-less initialize in 2025-11-25 even under a 2026 header (a 2025 client is never turned away)', () => {
    expect(routeHttpMessage({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }, rev2026Headers('initialize')).era).toBe(
      '2025-11-25',
    );
  });

  it('routes a claim to 2026-07-28, whatever the method and even with a session header', () => {
    const route = routeHttpMessage(
      { jsonrpc: '2.0', id: 7, method: 'ping', params: envelope() },
      rev2026Headers('ping', { 'Mcp-Session-Id': 'abc' }),
    );
    expect(route).toMatchObject({
      era: '2026-07-28',
      kind: 'request',
      envelope: { protocolVersion: '2026-07-28', clientCapabilities: {} },
    });
  });

  it('refuses a batch that carries a claim (400 -32600)', () => {
    expect(
      refusal(routeHttpMessage([{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: envelope() }], rev2026Headers('tools/list'))),
    ).toEqual({ status: 400, code: -32600, id: null });
  });

  it('refuses a claim-less request under a 2026 header with -32602 naming the missing keys', () => {
    const route = routeHttpMessage({ jsonrpc: '2.0', id: 3, method: 'server/discover', params: {} }, rev2026Headers('server/discover'));
    expect(refusal(route)).toEqual({ status: 400, code: -32602, id: 3 });
    expect(route.era === 'refused' && route.refusal.data).toEqual({ envelope: { missing: ['_meta'] } });
  });

  it('accepts a claim-less notification under a 2026 header as 2026-07-28 (nothing to answer)', () => {
    expect(
      routeHttpMessage({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers({ 'MCP-Protocol-Version': '2026-07-28' })),
    ).toMatchObject({ era: '2026-07-28', kind: 'notification' });
  });

  it.each([
    ['missing capabilities', { _meta: { [META.protocolVersion]: '2026-07-28' } }, 'tools/list', {}, -32602],
    [
      'capabilities of the wrong type',
      { _meta: { [META.protocolVersion]: '2026-07-28', [META.clientCapabilities]: [] } },
      'tools/list',
      {},
      -32602,
    ],
    ['a version header that differs from the body (checked before support)', envelope('v999.0.0'), 'tools/list', {}, -32020],
    ['an unsupported revision', envelope('v999.0.0'), 'tools/list', { 'MCP-Protocol-Version': 'v999.0.0' }, -32022],
    ['a 2025 revision in the claim', envelope('2025-11-25'), 'tools/list', { 'MCP-Protocol-Version': '2025-11-25' }, -32022],
    ['Mcp-Method differing from the body', envelope(), 'tools/list', { 'Mcp-Method': 'prompts/list' }, -32020],
    ['Mcp-Method differing in case only', envelope(), 'tools/list', { 'Mcp-Method': 'TOOLS/LIST' }, -32020],
  ])('refuses %s', (_label, params, method, extra, code) => {
    const route = routeHttpMessage({ jsonrpc: '2.0', id: 9, method, params }, rev2026Headers(method, extra as Record<string, string>));
    expect(refusal(route)).toEqual({ status: 400, code, id: 9 });
  });

  it('names supported and requested versions in -32022', () => {
    const route = routeHttpMessage(
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: envelope('2099-01-01') },
      rev2026Headers('tools/list', { 'MCP-Protocol-Version': '2099-01-01' }),
    );
    expect(route.era === 'refused' && route.refusal.data).toEqual({ supported: ['2026-07-28'], requested: '2099-01-01' });
  });

  it('requires MCP-Protocol-Version and Mcp-Method on a 2026-07-28 request (-32020)', () => {
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: envelope() };
    expect(refusal(routeHttpMessage(body, headers({ 'Mcp-Method': 'tools/list' })))).toMatchObject({ code: -32020 });
    expect(refusal(routeHttpMessage(body, headers({ 'MCP-Protocol-Version': '2026-07-28' })))).toMatchObject({ code: -32020 });
  });

  it('checks Mcp-Name against the body: presence, trimming, Base64, equality', () => {
    const call = (name: string) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, ...envelope() } });
    expect(routeHttpMessage(call('greet'), rev2026Headers('tools/call', { 'Mcp-Name': '  greet  ' })).era).toBe('2026-07-28');
    expect(
      routeHttpMessage(call('größe'), rev2026Headers('tools/call', { 'Mcp-Name': `=?base64?${Buffer.from('größe').toString('base64')}?=` }))
        .era,
    ).toBe('2026-07-28');
    expect(refusal(routeHttpMessage(call('greet'), rev2026Headers('tools/call')))).toMatchObject({ code: -32020 });
    expect(refusal(routeHttpMessage(call('greet'), rev2026Headers('tools/call', { 'Mcp-Name': 'other' })))).toMatchObject({ code: -32020 });
    expect(refusal(routeHttpMessage(call('greet'), rev2026Headers('tools/call', { 'Mcp-Name': '=?base64?Z3JlZXQ?=' })))).toMatchObject({
      code: -32020,
    });
  });
});

describe('era router: HTTP marks what the 2025-11-25 era needs to know', () => {
  it('marks a claim-less initialize as the opening and a claim-less server/discover as the probe', () => {
    const plain = headers({});
    expect(routeHttpMessage({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } }, plain)).toEqual({
      era: '2025-11-25',
      opening: true,
      probe: false,
    });
    expect(
      routeHttpMessage({ jsonrpc: '2.0', id: 2, method: 'server/discover' }, headers({ 'MCP-Protocol-Version': '2020-01-01' })),
    ).toEqual({ era: '2025-11-25', opening: false, probe: true });
  });

  it('pins nothing over HTTP but says which requests would pin (every one but the server/discover probe)', () => {
    expect(
      routeHttpMessage({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: envelope() }, rev2026Headers('server/discover')),
    ).toMatchObject({ pins: false });
    expect(
      routeHttpMessage({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: envelope() }, rev2026Headers('tools/list')),
    ).toMatchObject({ pins: true });
  });
});

describe('era router: one stdio message and its connection’s pinned era', () => {
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } };
  const claimed = (method: string, id: number | string = 2) => ({ jsonrpc: '2.0', id, method, params: envelope() });

  it('serves everything of a connection pinned to 2025-11-25 there, claims included', () => {
    for (const message of [
      claimed('tools/list'),
      [claimed('tools/list')],
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: envelope() },
      'junk',
    ]) {
      expect(stdio(message, '2025-11-25').era).toBe('2025-11-25');
    }
  });

  it('lets an unpinned connection open either era: a claim-less initialize opens 2025-11-25, a claim 2026-07-28', () => {
    expect(stdio(initialize)).toEqual({ era: '2025-11-25', opening: true, probe: false });
    expect(stdio(claimed('tools/list'))).toMatchObject({
      era: '2026-07-28',
      kind: 'request',
      pins: true,
      envelope: { protocolVersion: '2026-07-28' },
    });
    expect(stdio(claimed('server/discover'))).toMatchObject({ era: '2026-07-28', kind: 'request', pins: false });
    expect(stdio({ jsonrpc: '2.0', id: 3, method: 'tools/list' })).toEqual({ era: '2025-11-25', opening: false, probe: false });
  });

  it('checks no headers on stdio: a claim needs only its envelope', () => {
    expect(stdio(claimed('tools/call'))).toMatchObject({ era: '2026-07-28', kind: 'request' });
    expect(refusal(stdio({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: envelope('2099-01-01') }))).toEqual({
      status: 400,
      code: -32022,
      id: 4,
    });
    expect(
      refusal(stdio({ jsonrpc: '2.0', id: 5, method: 'tools/list', params: { _meta: { [META.protocolVersion]: '2026-07-28' } } })),
    ).toEqual({ status: 400, code: -32602, id: 5 });
  });

  it('on a connection pinned to 2026-07-28: no fallback to initialize, claim-less requests refused, notifications and responses kept', () => {
    const initializeRefusal = stdio(initialize, '2026-07-28');
    expect(refusal(initializeRefusal)).toEqual({ status: 400, code: -32022, id: 1 });
    expect(initializeRefusal.era === 'refused' && initializeRefusal.refusal.data).toEqual({
      supported: ['2026-07-28'],
      requested: '2025-11-25',
    });
    expect(refusal(stdio({ jsonrpc: '2.0', id: 6, method: 'tools/list' }, '2026-07-28'))).toEqual({ status: 400, code: -32602, id: 6 });
    expect(stdio({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } }, '2026-07-28')).toMatchObject({
      era: '2026-07-28',
      kind: 'notification',
    });
    expect(stdio({ jsonrpc: '2.0', id: 'srv-1', result: {} }, '2026-07-28')).toEqual({ era: '2026-07-28', kind: 'response' });
    expect(refusal(stdio([claimed('tools/list')], '2026-07-28'))).toEqual({ status: 400, code: -32600, id: null });
    expect(refusal(stdio({ jsonrpc: '2.0', id: 7 }, '2026-07-28'))).toEqual({ status: 400, code: -32600, id: 7 });
  });

  it('keeps claim-less notifications and responses of an unpinned connection in 2025-11-25', () => {
    expect(stdio({ jsonrpc: '2.0', method: 'notifications/initialized' }).era).toBe('2025-11-25');
    expect(stdio({ jsonrpc: '2.0', id: 'srv-1', result: {} }).era).toBe('2025-11-25');
  });
});

describe('claimOf: what a message claims on its channel', () => {
  const claimed = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'greet', ...envelope() },
  };
  const http = (values: Record<string, string>) => ({ transport: 'http' as const, header: (name: string) => values[name] });

  it('reads the revision headers of an HTTP channel, trimmed of optional whitespace (Mcp-Name raw); nothing is pinned', () => {
    const claim = claimOf(claimed, http({ 'mcp-protocol-version': ' 2026-07-28 ', 'mcp-method': 'tools/call\t', 'mcp-name': ' greet ' }));
    expect(claim).toEqual({
      message: claimed,
      channelRevision: '2026-07-28',
      pinned: false,
      headers: { protocolVersion: '2026-07-28', method: 'tools/call', name: ' greet ' },
    });
    expect(claimOf(claimed, http({}))).toEqual({
      message: claimed,
      channelRevision: undefined,
      pinned: false,
      headers: { protocolVersion: undefined, method: undefined, name: undefined },
    });
  });

  it('feeds the router: the same body is served, or refused for a missing header', () => {
    const full = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'greet' };
    expect(routeMessage(claimOf(claimed, http(full))).era).toBe('2026-07-28');
    expect(routeMessage(claimOf(claimed, http({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' })))).toMatchObject({
      era: 'refused',
      refusal: { code: -32020 },
    });
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    expect(routeMessage(claimOf(list, http({ 'mcp-protocol-version': '2025-11-25' }))).era).toBe('2025-11-25');
  });

  it('names the era a connection pinned as the revision, and no headers', () => {
    const connection = (era?: McpEra) => ({ transport: 'stdio' as const, connection: { protocolVersion: '2025-11-25', era } });
    expect(claimOf(claimed, connection())).toEqual({ message: claimed, pinned: false });
    expect(claimOf(claimed, connection('2025-11-25'))).toEqual({ message: claimed, channelRevision: '2025-11-25', pinned: true });
    expect(routeMessage(claimOf(claimed, connection()))).toMatchObject({ era: '2026-07-28', kind: 'request', pins: true });
    expect(routeMessage(claimOf(claimed, connection('2026-07-28')))).toMatchObject({ era: '2026-07-28', kind: 'request' });
    expect(routeMessage(claimOf(claimed, connection('2025-11-25'))).era).toBe('2025-11-25');
  });

  it("keeps a held session's messages in its era (HTTP+SSE), whatever they claim", () => {
    const session = { protocolVersion: '2024-11-05' } as never;
    expect(claimOf(claimed, { transport: 'sse', session })).toEqual({ message: claimed, channelRevision: '2024-11-05', pinned: true });
    expect(routeMessage(claimOf(claimed, { transport: 'sse', session })).era).toBe('2025-11-25');
  });
});
