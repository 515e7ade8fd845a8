import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CityDto, INTERNAL_SECRET, observed, startSecApp } from './fixtures/sec-app.js';
import { type RunningApp } from '../kit/apps.js';
import { callTool, envelopeOf, expectNoLeak, post } from '../kit/http.js';

/**
 * User guards and interceptors on tools (`@UseGuards` / `@UseInterceptors` next to `@McpTool`): they run in an
 * `mcp` execution context and see the principal; guards run before validation and see the arguments as sent (as
 * Nest's guards run before pipes), interceptors the validated ones. Refusals become FORBIDDEN envelopes (isError
 * results), never protocol errors or leaked exceptions.
 */

const ACME_KEY = 'guard-suite-acme-key-000000000001';
const BLOCKED_KEY = 'guard-suite-blocked-key-00000002';

describe('user guards and interceptors on tools', () => {
  let app: RunningApp;
  const acme = { 'X-API-Key': ACME_KEY };

  beforeAll(async () => {
    app = await startSecApp({
      auth: {
        apiKeys: [
          { key: ACME_KEY, tenant: 'acme', scopes: [] },
          { key: BLOCKED_KEY, tenant: 'blocked', scopes: [] },
        ],
      },
    });
  });
  afterAll(() => app?.close());

  beforeEach(() => {
    observed.guardTypes.length = 0;
    observed.guardArgs.length = 0;
    observed.guardPrincipalTenants.length = 0;
    observed.interceptorTypes.length = 0;
  });

  it('an allowed call passes the guard, which saw an mcp context, the principal and the arguments as sent', async () => {
    const answer = await post(app.url, callTool(1, 'guarded_city', { city: 'Paris' }), acme);
    expect(answer.status).toBe(200);
    expect(answer.json.result.isError).toBe(false);
    expect(envelopeOf(answer)).toEqual({ status: 'success', data: { city: 'Paris' } });
    expect(observed.guardTypes).toEqual(['mcp']);
    expect(observed.guardPrincipalTenants).toEqual(['acme']);
    // Guards run before validation (issue 27: a refused caller must not learn the schema): not the DTO yet.
    expect(observed.guardArgs[0]).not.toBeInstanceOf(CityDto);
    expect(observed.guardArgs[0]).toEqual({ city: 'Paris' });
  });

  it('a guard returning false (args.city === "Forbidden City") → isError result with a FORBIDDEN envelope', async () => {
    const answer = await post(app.url, callTool(2, 'guarded_city', { city: 'Forbidden City' }), acme);
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ jsonrpc: '2.0', id: 2 });
    expect(answer.json.error).toBeUndefined();
    expect(answer.json.result.isError).toBe(true);
    expect(envelopeOf(answer)).toEqual({
      status: 'error',
      error: { code: 'FORBIDDEN', retryable: false, message: expect.stringMatching(/\S/) },
    });
  });

  it('a guard denying by principal (tenant "blocked") → FORBIDDEN with the guard message', async () => {
    const answer = await post(app.url, callTool(3, 'guarded_city', { city: 'Paris' }), { Authorization: `Bearer ${BLOCKED_KEY}` });
    expect(answer.json.result.isError).toBe(true);
    expect(envelopeOf(answer)).toEqual({
      status: 'error',
      error: { code: 'FORBIDDEN', retryable: false, message: 'This tenant is blocked by CityGuard' },
    });
    expect(observed.guardPrincipalTenants).toEqual(['blocked']);
  });

  it('a guard that crashes → INTERNAL_ERROR envelope without its message or a stack trace', async () => {
    const answer = await post(app.url, callTool(4, 'guarded_city', { city: 'Explode' }), acme);
    expect(answer.status).toBe(200);
    expect(answer.json.result.isError).toBe(true);
    expect(envelopeOf(answer).error.code).toBe('INTERNAL_ERROR');
    expectNoLeak(answer, [INTERNAL_SECRET, 'guard crashed', ACME_KEY]);
  });

  it('the guard runs before validation: an admitted invalid city is a VALIDATION_ERROR, a refused one FORBIDDEN', async () => {
    const answer = await post(app.url, callTool(5, 'guarded_city', { city: '' }), acme);
    expect(envelopeOf(answer)).toMatchObject({ status: 'error', error: { code: 'VALIDATION_ERROR' } });
    expect(observed.guardTypes).toEqual(['mcp']);
    const refused = await post(app.url, callTool(5, 'guarded_city', { city: '' }), { Authorization: `Bearer ${BLOCKED_KEY}` });
    expect(envelopeOf(refused)).toMatchObject({ status: 'error', error: { code: 'FORBIDDEN' } });
  });

  it('an interceptor that maps the result: its fields are visible in the response data; context type is "mcp"', async () => {
    const answer = await post(app.url, callTool(6, 'intercepted_city', { city: 'Oslo' }), acme);
    expect(answer.json.result.isError).toBe(false);
    expect(envelopeOf(answer)).toEqual({
      status: 'success',
      data: { city: 'Oslo', intercepted: true, context_type: 'mcp', tenant_seen: 'acme' },
    });
    expect(observed.interceptorTypes).toEqual(['mcp']);
  });

  it('a tool that throws an unexpected error → INTERNAL_ERROR, no internal message, no stack', async () => {
    const answer = await post(app.url, callTool(7, 'explode'), acme);
    expect(answer.status).toBe(200);
    expect(envelopeOf(answer)).toEqual({
      status: 'error',
      error: { code: 'INTERNAL_ERROR', retryable: expect.any(Boolean), message: expect.any(String) },
    });
    expectNoLeak(answer, [INTERNAL_SECRET, 'postgres://']);
  });

  it('with the SDK client: a guard refusal is an isError result (the call does not reject)', async () => {
    const client = new Client({ name: 'security-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(app.url), { requestInit: { headers: acme } }));
    try {
      const denied = await client.callTool({ name: 'guarded_city', arguments: { city: 'Forbidden City' } });
      expect(denied.isError).toBe(true);
      expect(denied.structuredContent).toMatchObject({ status: 'error', error: { code: 'FORBIDDEN' } });
      const allowed = await client.callTool({ name: 'intercepted_city', arguments: { city: 'Rome' } });
      expect(allowed.structuredContent).toEqual({
        status: 'success',
        data: { city: 'Rome', intercepted: true, context_type: 'mcp', tenant_seen: 'acme' },
      });
    } finally {
      await client.close();
    }
  });
});
