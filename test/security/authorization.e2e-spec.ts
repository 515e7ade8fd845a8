import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { HS_SECRET, signToken } from './fixtures/tokens.js';
import { KEYS, MCP_API_KEYS } from './fixtures/weather-app.js';
import { startSecApp } from './fixtures/sec-app.js';
import { type RunningApp, startWeatherApp } from '../kit/apps.js';
import {
  callTool,
  envelopeOf,
  expectNoLeak,
  type HttpAnswer,
  initializeRequest,
  openSession,
  post,
  rpc,
  send,
  toolNames,
} from '../kit/http.js';
import { endpointOf, openSse, sseMessages } from '../kit/sse.js';

/**
 * Authorization against the real weather-server (configured from MCP_API_KEYS / MCP_JWT_SECRET): scope-filtered
 * tools/list, 403 step-up on a missing scope, tenant-partitioned alerts and principal-bound sessions.
 */

const key = (value: string) => ({ 'X-API-Key': value });
const jwt = async (claims: Record<string, unknown>) => ({ Authorization: `Bearer ${await signToken(claims, HS_SECRET)}` });

let idem = 0;
/** A fresh idempotency key (16..64 characters). */
const idempotencyKey = () => `sec-idem-${Date.now()}-${++idem}-padding`;

function alertArgs(city = 'Beijing'): Record<string, unknown> {
  return { city, threshold_celsius: 30, priority: 'high', idempotency_key: idempotencyKey() };
}

function expectForbidden403(answer: HttpAnswer, id: number | string): void {
  expect(answer.status).toBe(403);
  const challenge = answer.headers.get('www-authenticate') ?? '';
  expect(challenge).toMatch(/^Bearer error="insufficient_scope", scope="weather:write"/);
  expect(answer.json).toEqual({
    jsonrpc: '2.0',
    id,
    error: {
      code: expect.any(Number),
      message: expect.stringMatching(/\S/),
      data: { status: 'error', error: { code: 'FORBIDDEN', retryable: false, message: expect.stringMatching(/weather:write/) } },
    },
  });
}

describe('authorization and tenant isolation (weather-server, API keys + HS256 JWT from the environment)', () => {
  let app: RunningApp;

  beforeAll(async () => {
    app = await startWeatherApp({ env: { MCP_API_KEYS, MCP_JWT_SECRET: HS_SECRET } });
  });
  afterAll(() => app?.close());

  describe('scopes', () => {
    it('a read-only key does not see create_weather_alert in tools/list', async () => {
      const names = toolNames(await post(app.url, rpc(1, 'tools/list'), key(KEYS.readOnly)));
      expect(names).toEqual(expect.arrayContaining(['get_weather', 'get_forecast', 'list_weather_alerts']));
      expect(names).not.toContain('create_weather_alert');
    });

    it('a read-write key sees create_weather_alert', async () => {
      expect(toolNames(await post(app.url, rpc(1, 'tools/list'), key(KEYS.a)))).toEqual(
        expect.arrayContaining(['create_weather_alert', 'get_forecast', 'get_weather', 'list_weather_alerts']),
      );
    });

    it('a read-only key calling create_weather_alert → HTTP 403, insufficient_scope challenge, FORBIDDEN envelope; nothing is created', async () => {
      const answer = await post(app.url, callTool(7, 'create_weather_alert', alertArgs()), key(KEYS.readOnly));
      expectForbidden403(answer, 7);
      expectNoLeak(answer, [KEYS.readOnly]);
      const listed = envelopeOf(await post(app.url, callTool(8, 'list_weather_alerts'), key(KEYS.readOnly)));
      expect(listed).toEqual({ status: 'success', data: { alerts: [] } });
    });

    it('the 403 also happens inside a session, with the id of the request', async () => {
      const sessionId = (await openSession(app.url, { headers: key(KEYS.readOnly) })).sessionId;
      const answer = await post(app.url, callTool('call-1', 'create_weather_alert', alertArgs()), {
        ...key(KEYS.readOnly),
        'Mcp-Session-Id': sessionId,
      });
      expectForbidden403(answer, 'call-1');
    });

    it('a JWT with scope "weather:read" is refused the write tool; scp [read, write] may use it', async () => {
      expectForbidden403(
        await post(
          app.url,
          callTool(1, 'create_weather_alert', alertArgs()),
          await jwt({ sub: 'u1', tenant_id: 'jwt-co', scope: 'weather:read' }),
        ),
        1,
      );
      const allowed = await post(
        app.url,
        callTool(2, 'create_weather_alert', alertArgs()),
        await jwt({ sub: 'u1', tenant_id: 'jwt-co', scp: ['weather:read', 'weather:write'] }),
      );
      expect(allowed.status).toBe(200);
      expect(envelopeOf(allowed)).toMatchObject({ status: 'success', data: { city: 'Beijing', priority: 'high' } });
    });

    it('a JWT without scopes sees none of the scoped tools and cannot call get_weather', async () => {
      const headers = await jwt({ sub: 'nobody' });
      const names = toolNames(await post(app.url, rpc(1, 'tools/list'), headers));
      for (const name of ['create_weather_alert', 'get_forecast', 'get_weather', 'list_weather_alerts']) expect(names).not.toContain(name);
      const answer = await post(app.url, callTool(2, 'get_weather', { city: 'Beijing' }), headers);
      expect(answer.status).toBe(403);
      expect(answer.headers.get('www-authenticate')).toContain('scope="weather:read"');
      expect(answer.json.error.data.error.code).toBe('FORBIDDEN');
    });

    it('with the SDK client: the read-only key does not list the write tool and its call rejects', async () => {
      const client = new Client({ name: 'security-e2e', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(app.url), { requestInit: { headers: key(KEYS.readOnly) } }));
      try {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).not.toContain('create_weather_alert');
        expect(tools.map((tool) => tool.name)).toContain('list_weather_alerts');
        await expect(client.callTool({ name: 'create_weather_alert', arguments: alertArgs() })).rejects.toThrow();
        const listed = await client.callTool({ name: 'list_weather_alerts', arguments: {} });
        expect(listed.structuredContent).toEqual({ status: 'success', data: { alerts: [] } });
      } finally {
        await client.close();
      }
    });

    it('with the SDK client: a read-write key creates an alert', async () => {
      const client = new Client({ name: 'security-e2e', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(app.url), { requestInit: { headers: { Authorization: `Bearer ${KEYS.b}` } } }),
      );
      try {
        const result = await client.callTool({ name: 'create_weather_alert', arguments: alertArgs('Shanghai') });
        expect(result.isError).toBe(false);
        expect(result.structuredContent).toMatchObject({ status: 'success', data: { city: 'Shanghai' } });
      } finally {
        await client.close();
      }
    });
  });

  describe('tenant isolation', () => {
    it("tenant B's list_weather_alerts never contains tenant A's alert; A's does", async () => {
      const created = envelopeOf(await post(app.url, callTool(1, 'create_weather_alert', alertArgs('Tokyo')), key(KEYS.a)));
      expect(created.status).toBe('success');
      const alertId: string = created.data.alert_id;
      expect(alertId).toMatch(/\S/);

      const ofB = envelopeOf(await post(app.url, callTool(2, 'list_weather_alerts'), key(KEYS.b)));
      expect(ofB.status).toBe('success');
      expect(ofB.data.alerts.map((alert: { alert_id: string }) => alert.alert_id)).not.toContain(alertId);
      expect(JSON.stringify(ofB)).not.toContain(alertId);

      const ofA = envelopeOf(await post(app.url, callTool(3, 'list_weather_alerts'), key(KEYS.a)));
      expect(ofA.data.alerts.map((alert: { alert_id: string }) => alert.alert_id)).toContain(alertId);
    });

    it("a JWT whose tenant_id is tenant-a sees tenant-a's alerts; one with sub tenant-a (no tenant_id) too; others do not", async () => {
      const created = envelopeOf(await post(app.url, callTool(1, 'create_weather_alert', alertArgs('Paris')), key(KEYS.a)));
      const alertId: string = created.data.alert_id;
      const ids = async (headers: Record<string, string>) =>
        envelopeOf(await post(app.url, callTool(2, 'list_weather_alerts'), headers)).data.alerts.map(
          (alert: { alert_id: string }) => alert.alert_id,
        );
      expect(await ids(await jwt({ sub: 'someone', tenant_id: 'tenant-a', scope: 'weather:read' }))).toContain(alertId);
      expect(await ids(await jwt({ sub: 'tenant-a', scope: 'weather:read' }))).toContain(alertId);
      expect(await ids(await jwt({ sub: 'tenant-a-evil', scope: 'weather:read' }))).not.toContain(alertId);
      expect(await ids(await jwt({ sub: 'x', tenant_id: 'tenant-b', scope: 'weather:read' }))).not.toContain(alertId);
    });

    it('a tenant_id in the tool arguments cannot pick another tenant (extra arguments are refused)', async () => {
      const answer = await post(app.url, callTool(1, 'list_weather_alerts', { tenant: 'tenant-a', tenant_id: 'tenant-a' }), key(KEYS.b));
      const envelope = envelopeOf(answer);
      expect(envelope.status).toBe('error');
      expect(JSON.stringify(envelope)).not.toContain('alr_');
    });
  });

  describe('sessions are bound to their creator', () => {
    it("tenant A's session used with tenant B's credentials → 404; with A's → works", async () => {
      const sessionId = (await openSession(app.url, { headers: key(KEYS.a) })).sessionId;
      const asB = await post(app.url, rpc(2, 'tools/list'), { ...key(KEYS.b), 'Mcp-Session-Id': sessionId });
      expect(asB.status).toBe(404);
      expect(asB.json).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
      expect(asB.json.result).toBeUndefined();
      const asA = await post(app.url, rpc(3, 'tools/list'), { ...key(KEYS.a), 'Mcp-Session-Id': sessionId });
      expect(asA.status).toBe(200);
      expect(toolNames(asA)).toContain('create_weather_alert');
    });

    it("B cannot call tools in A's session (the call does not run)", async () => {
      const sessionId = (await openSession(app.url, { headers: key(KEYS.a) })).sessionId;
      const answer = await post(app.url, callTool(2, 'create_weather_alert', alertArgs('Berlin')), {
        ...key(KEYS.b),
        'Mcp-Session-Id': sessionId,
      });
      expect(answer.status).toBe(404);
      const listedA = envelopeOf(await post(app.url, callTool(3, 'list_weather_alerts'), key(KEYS.a))).data.alerts;
      const listedB = envelopeOf(await post(app.url, callTool(4, 'list_weather_alerts'), key(KEYS.b))).data.alerts;
      expect([...listedA, ...listedB].map((alert: { city: string }) => alert.city)).not.toContain('Berlin');
    });

    it("B can neither open A's GET stream nor DELETE A's session; A's session survives", async () => {
      const sessionId = (await openSession(app.url, { headers: key(KEYS.a) })).sessionId;
      const stream = await openSse(app.url, { ...key(KEYS.b), 'Mcp-Session-Id': sessionId });
      stream.close();
      expect(stream.status).toBe(404);
      const deleted = await send(app.url, { method: 'DELETE', headers: { ...key(KEYS.b), 'Mcp-Session-Id': sessionId } });
      expect(deleted.status).toBe(404);
      expect((await post(app.url, rpc(5, 'ping'), { ...key(KEYS.a), 'Mcp-Session-Id': sessionId })).status).toBe(200);
    });

    it('another subject of the same tenant cannot use the session either', async () => {
      const sessionId = (
        await openSession(app.url, { headers: await jwt({ sub: 'alice', tenant_id: 'shared-co', scope: 'weather:read' }) })
      ).sessionId;
      const bob = await post(app.url, rpc(2, 'ping'), {
        ...(await jwt({ sub: 'bob', tenant_id: 'shared-co', scope: 'weather:read' })),
        'Mcp-Session-Id': sessionId,
      });
      expect(bob.status).toBe(404);
      const alice = await post(app.url, rpc(3, 'ping'), {
        ...(await jwt({ sub: 'alice', tenant_id: 'shared-co', scope: 'weather:read' })),
        'Mcp-Session-Id': sessionId,
      });
      expect(alice.status).toBe(200);
    });

    it("2024-11-05 HTTP+SSE: B cannot post into A's /messages session; A can", async () => {
      const stream = await openSse(`${app.base}/sse`, key(KEYS.a));
      try {
        expect(stream.status).toBe(200);
        const messages = endpointOf(stream.firstEvent);
        expect((await post(messages, initializeRequest(1), key(KEYS.b))).status).toBe(404);
        expect((await post(messages, initializeRequest(1), key(KEYS.a))).status).toBe(202);
      } finally {
        stream.close();
      }
    });

    it('an initialize that already carries a session id is refused (no session fixation)', async () => {
      const answer = await post(app.url, initializeRequest(1), { ...key(KEYS.a), 'Mcp-Session-Id': 'attacker-chosen-session-id' });
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.headers.get('mcp-session-id')).toBeNull();
    });

    it('session ids are unguessable: long, random and distinct', async () => {
      const ids = await Promise.all([1, 2, 3].map(async () => (await openSession(app.url, { headers: key(KEYS.a) })).sessionId));
      expect(new Set(ids).size).toBe(3);
      for (const id of ids) {
        expect(id.length).toBeGreaterThanOrEqual(22);
        expect(id).toMatch(/^[\x21-\x7E]+$/);
      }
    });
  });
});

describe('stream resumption is bound to the session (Last-Event-ID)', () => {
  const A = 'resume-suite-tenant-a-key-0000001';
  const B = 'resume-suite-tenant-b-key-0000002';
  let app: RunningApp;
  beforeAll(async () => {
    app = await startSecApp({
      auth: {
        apiKeys: [
          { key: A, tenant: 'tenant-a' },
          { key: B, tenant: 'tenant-b' },
        ],
      },
    });
  });
  afterAll(() => app?.close());

  /** Runs `chatty` in a new session of `apiKey`; returns the session and the SSE events (id, kind) of the reply. */
  async function chattyStream(
    apiKey: string,
  ): Promise<{ sessionId: string; eventIds: string[]; primeId?: string; messageIds: string[]; text: string }> {
    const sessionId = (await openSession(app.url, { headers: { 'X-API-Key': apiKey } })).sessionId;
    const answer = await post(app.url, callTool(1, 'chatty'), { 'X-API-Key': apiKey, 'Mcp-Session-Id': sessionId });
    expect(answer.status).toBe(200);
    expect(answer.contentType).toMatch(/^text\/event-stream/);
    const blocks = answer.text.split(/\r?\n\r?\n/).filter((block) => /^id:/m.test(block));
    const idOf = (block: string) => /^id:\s*(\S+)$/m.exec(block)![1];
    const messageIds = blocks.filter((block) => /^event:\s*message$/m.test(block)).map(idOf);
    const prime = blocks.find((block) => !/^event:\s*message$/m.test(block));
    expect(messageIds.length).toBeGreaterThanOrEqual(2); // the log notification, then the response
    return { sessionId, eventIds: blocks.map(idOf), primeId: prime && idOf(prime), messageIds, text: answer.text };
  }

  const resume = (apiKey: string, sessionId: string, lastEventId: string) =>
    send(app.url, {
      method: 'GET',
      headers: { 'X-API-Key': apiKey, 'Mcp-Session-Id': sessionId, Accept: 'text/event-stream', 'Last-Event-ID': lastEventId },
    });

  it('the owner can replay its stream after a message event id (sanity check of the mechanism)', async () => {
    const { sessionId, messageIds, text } = await chattyStream(A);
    expect(text).toContain('private-note-of-tenant-a');
    const replay = await resume(A, sessionId, messageIds[0]);
    expect(replay.status).toBe(200);
    expect(sseMessages(replay.text).some((message: any) => message?.id === 1 && message.result)).toBe(true);
  });

  it('the owner can resume from the priming event id (the id it gets before any message, SEP-1699)', async () => {
    const { sessionId, primeId } = await chattyStream(A);
    expect(primeId).toBeDefined();
    const replay = await resume(A, sessionId, primeId!);
    expect(replay.status).toBe(200);
    expect(replay.text).toContain('private-note-of-tenant-a');
  });

  it("another tenant's session cannot replay A's events with A's Last-Event-ID", async () => {
    const { eventIds } = await chattyStream(A);
    const sessionOfB = (await openSession(app.url, { headers: { 'X-API-Key': B } })).sessionId;
    for (const lastEventId of eventIds) {
      const replay = await resume(B, sessionOfB, lastEventId);
      expect(replay.status).toBe(404);
      expect(replay.text).not.toContain('private-note-of-tenant-a');
    }
  });

  it("A's own second session cannot replay the first session's events either", async () => {
    const { messageIds } = await chattyStream(A);
    const second = (await openSession(app.url, { headers: { 'X-API-Key': A } })).sessionId;
    for (const lastEventId of messageIds) {
      const replay = await resume(A, second, lastEventId);
      expect(replay.status).toBe(404);
      expect(replay.text).not.toContain('private-note');
    }
  });
});
