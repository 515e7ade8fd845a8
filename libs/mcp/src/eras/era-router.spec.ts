import { routeHttpMessage, type HeaderReader } from './era-router.js';
import { META } from './rev-2026-07-28/rev-2026-07-28.constants.js';

const envelope = (version = '2026-07-28', extra: Record<string, unknown> = {}) => ({
  _meta: { [META.protocolVersion]: version, [META.clientCapabilities]: {}, ...extra },
});
const headers =
  (values: Record<string, string>): HeaderReader =>
  (name) =>
    Object.entries(values).find(([key]) => key.toLowerCase() === name)?.[1];
const modernHeaders = (method: string, extra: Record<string, string> = {}) => headers({ 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': method, ...extra });
const refusal = (route: ReturnType<typeof routeHttpMessage>) => (route.era === 'refused' ? { status: route.refusal.status, code: route.refusal.code, id: route.id } : route);

describe('era routing of one POST body (dual-era rules)', () => {
  it('keeps claim-less traffic legacy: initialize, requests, notifications, responses, batches', () => {
    for (const body of [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'srv-1', result: {} },
      [{ jsonrpc: '2.0', id: 1, method: 'ping' }],
      'not an object',
    ]) {
      expect(routeHttpMessage(body, headers({ 'MCP-Protocol-Version': '2025-06-18' }))).toEqual({ era: 'legacy' });
    }
  });

  it('keeps a claim-less initialize legacy even under a modern header (a legacy client is never turned away)', () => {
    expect(routeHttpMessage({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }, modernHeaders('initialize')).era).toBe('legacy');
  });

  it('routes a claim to the modern era, whatever the method and even with a session header', () => {
    const route = routeHttpMessage({ jsonrpc: '2.0', id: 7, method: 'ping', params: envelope() }, modernHeaders('ping', { 'Mcp-Session-Id': 'abc' }));
    expect(route).toMatchObject({ era: 'modern', kind: 'request', envelope: { protocolVersion: '2026-07-28', clientCapabilities: {} } });
  });

  it('refuses a batch that carries a claim (400 -32600)', () => {
    expect(refusal(routeHttpMessage([{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: envelope() }], modernHeaders('tools/list')))).toEqual({ status: 400, code: -32600, id: null });
  });

  it('refuses a claim-less request under a modern header with -32602 naming the missing keys', () => {
    const route = routeHttpMessage({ jsonrpc: '2.0', id: 3, method: 'server/discover', params: {} }, modernHeaders('server/discover'));
    expect(refusal(route)).toEqual({ status: 400, code: -32602, id: 3 });
    expect(route.era === 'refused' && route.refusal.data).toEqual({ envelope: { missing: ['_meta'] } });
  });

  it('accepts a claim-less notification under a modern header as modern (nothing to answer)', () => {
    expect(routeHttpMessage({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers({ 'MCP-Protocol-Version': '2026-07-28' }))).toMatchObject({ era: 'modern', kind: 'notification' });
  });

  it.each([
    ['missing capabilities', { _meta: { [META.protocolVersion]: '2026-07-28' } }, 'tools/list', {}, -32602],
    ['capabilities of the wrong type', { _meta: { [META.protocolVersion]: '2026-07-28', [META.clientCapabilities]: [] } }, 'tools/list', {}, -32602],
    ['a version header that differs from the body (checked before support)', envelope('v999.0.0'), 'tools/list', {}, -32020],
    ['an unsupported revision', envelope('v999.0.0'), 'tools/list', { 'MCP-Protocol-Version': 'v999.0.0' }, -32022],
    ['a legacy revision in the claim', envelope('2025-11-25'), 'tools/list', { 'MCP-Protocol-Version': '2025-11-25' }, -32022],
    ['Mcp-Method differing from the body', envelope(), 'tools/list', { 'Mcp-Method': 'prompts/list' }, -32020],
    ['Mcp-Method differing in case only', envelope(), 'tools/list', { 'Mcp-Method': 'TOOLS/LIST' }, -32020],
  ])('refuses %s', (_label, params, method, extra, code) => {
    const route = routeHttpMessage({ jsonrpc: '2.0', id: 9, method, params }, modernHeaders(method, extra as Record<string, string>));
    expect(refusal(route)).toEqual({ status: 400, code, id: 9 });
  });

  it('names supported and requested versions in -32022', () => {
    const route = routeHttpMessage({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: envelope('2099-01-01') }, modernHeaders('tools/list', { 'MCP-Protocol-Version': '2099-01-01' }));
    expect(route.era === 'refused' && route.refusal.data).toEqual({ supported: ['2026-07-28'], requested: '2099-01-01' });
  });

  it('requires MCP-Protocol-Version and Mcp-Method on a modern request (-32020)', () => {
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: envelope() };
    expect(refusal(routeHttpMessage(body, headers({ 'Mcp-Method': 'tools/list' })))).toMatchObject({ code: -32020 });
    expect(refusal(routeHttpMessage(body, headers({ 'MCP-Protocol-Version': '2026-07-28' })))).toMatchObject({ code: -32020 });
  });

  it('checks Mcp-Name against the body: presence, trimming, Base64, equality', () => {
    const call = (name: string) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, ...envelope() } });
    expect(routeHttpMessage(call('greet'), modernHeaders('tools/call', { 'Mcp-Name': '  greet  ' })).era).toBe('modern');
    expect(routeHttpMessage(call('größe'), modernHeaders('tools/call', { 'Mcp-Name': `=?base64?${Buffer.from('größe').toString('base64')}?=` })).era).toBe('modern');
    expect(refusal(routeHttpMessage(call('greet'), modernHeaders('tools/call')))).toMatchObject({ code: -32020 });
    expect(refusal(routeHttpMessage(call('greet'), modernHeaders('tools/call', { 'Mcp-Name': 'other' })))).toMatchObject({ code: -32020 });
    expect(refusal(routeHttpMessage(call('greet'), modernHeaders('tools/call', { 'Mcp-Name': '=?base64?Z3JlZXQ?=' })))).toMatchObject({ code: -32020 });
  });
});
