import 'reflect-metadata';
import { eventually } from '../kit/eventually.js';
import { McpStreamHub } from '../../libs/mcp/src/transports/streams/stream-hub.js';
import { invokeTool, onInstance, openSseSession, postToSseSession, pubsubChannels, instancesOnOneRedis } from './scaling-support.js';
import { type RunningApp } from '../kit/apps.js';
import { ACCEPT_BOTH, initializeParams, notification, openSession, post, postStream, rpc, sessionHeaders } from '../kit/http.js';
import { SseReader } from '../kit/sse.js';

/**
 * Two weather-server instances on one Redis, no sticky sessions: whatever instance a request reaches, the answer
 * arrives where the client listens (2024-11-05 HTTP+SSE stream, GET stream, a tool waiting for the client's answer).
 */
describe('cross-instance routing over the message bus', () => {
  const shared = instancesOnOneRedis({ count: 2 });
  let a: RunningApp;
  let b: RunningApp;
  beforeAll(() => ([a, b] = shared.apps));
  const base = (app: RunningApp) => app.url.replace(/\/mcp$/, '');

  describe('2024-11-05 HTTP+SSE', () => {
    it('answers a POST /messages that reached B on the stream held by A', async () => {
      const stream = await openSseSession(base(a));
      try {
        const onB = onInstance(stream.endpoint, base(b));
        expect((await postToSseSession(onB, rpc(1, 'initialize', initializeParams('2024-11-05')))).status).toBe(202);
        expect(await stream.nextMessage()).toMatchObject({
          id: 1,
          result: { protocolVersion: '2024-11-05', serverInfo: { name: 'weather-server' } },
        });
        expect((await postToSseSession(onB, notification('notifications/initialized'))).status).toBe(202);

        expect((await postToSseSession(onB, rpc(2, 'tools/call', { name: 'get_weather', arguments: { city: 'Tokyo' } }))).status).toBe(202);
        const answer = await stream.nextMessage();
        expect(answer).toMatchObject({ id: 2, result: { isError: false } });
        expect(answer.result.structuredContent).toMatchObject({ status: 'success' });

        // A and B interleaved: each answer still comes on the one stream.
        expect((await postToSseSession(stream.endpoint, rpc(3, 'ping'))).status).toBe(202);
        expect(await stream.nextMessage()).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
      } finally {
        await stream.close();
      }
    });

    it('refuses on B a session that does not exist or is not a 2024-11-05 HTTP+SSE one (404), as A does', async () => {
      const unknown = await postToSseSession(`${base(b)}/messages?sessionId=nope`, rpc(1, 'ping'));
      expect(unknown.status).toBe(404);
      const { sessionId } = await openSession(a.url);
      const streamable = await postToSseSession(`${base(b)}/messages?sessionId=${encodeURIComponent(sessionId)}`, rpc(1, 'ping'));
      expect(streamable.status).toBe(404);
    });

    it('ends the route when the stream closes: no subscription is left on Redis, and B then answers 404', async () => {
      const stream = await openSseSession(base(a));
      expect(await pubsubChannels(shared.redis.url, 'mcp:route:*')).toContain(`mcp:route:legacy-sse:${stream.sessionId}`);
      await stream.close();
      await eventually(async () => (await pubsubChannels(shared.redis.url, 'mcp:route:*')).length === 0, 5_000, 'route released');
      await eventually(
        async () => (await postToSseSession(onInstance(stream.endpoint, base(b)), rpc(1, 'ping'))).status === 404,
        5_000,
        'session ended',
      );
    });
  });

  describe('Streamable HTTP', () => {
    it('delivers a notification sent from B on the GET stream that A holds, and releases the route when it closes', async () => {
      const { sessionId } = await openSession(a.url);
      const controller = new AbortController();
      const response = await fetch(a.url, {
        headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-11-25' },
        signal: controller.signal,
      });
      expect(response.status).toBe(200);
      const reader = new SseReader(response);
      try {
        await eventually(
          async () => (await pubsubChannels(shared.redis.url, 'mcp:route:*')).includes(`mcp:route:session-stream:${sessionId}`),
          5_000,
          'route held',
        );
        const message = { jsonrpc: '2.0' as const, method: 'notifications/message', params: { level: 'info', data: 'from B' } };
        expect(b.app.get(McpStreamHub).notifyHere(sessionId, message)).toBe(false);
        expect(b.app.get(McpStreamHub).notifySession(sessionId, message)).toBe(true);
        for (;;) {
          const event = await reader.nextEvent();
          if (event?.data) {
            expect(JSON.parse(event.data)).toEqual(message);
            break;
          }
        }
      } finally {
        await reader.cancel();
        controller.abort();
      }
      await eventually(async () => (await pubsubChannels(shared.redis.url, 'mcp:route:*')).length === 0, 5_000, 'route released');
    });

    it("settles a tool's elicitation on A with the client's answer POSTed to B", async () => {
      const init = await post(a.url, rpc(1, 'initialize', { ...initializeParams('2025-11-25'), capabilities: { elicitation: {} } }));
      const sessionId = init.headers.get('mcp-session-id')!;
      const headers = sessionHeaders(sessionId, '2025-11-25');
      await post(a.url, notification('notifications/initialized'), headers);
      const created = await invokeTool(
        b.url,
        'create_weather_alert',
        { city: 'Paris', threshold_celsius: 30, priority: 'low', idempotency_key: `routing-${Date.now()}-0001` },
        headers,
      );
      const alertId = created.envelope.data.alert_id as string;

      // The call runs on A and asks the client; the POST stream carries the question.
      const call = await postStream(a.url, rpc(2, 'tools/call', { name: 'delete_weather_alert', arguments: { alert_id: alertId } }), {
        ...headers,
        Accept: ACCEPT_BOTH,
      });
      const reader = new SseReader(call);
      let question: any;
      while (!question) {
        const event = await reader.nextEvent();
        if (!event) throw new Error(`stream ended: ${reader.raw}`);
        if (event.data) question = JSON.parse(event.data);
      }
      expect(question).toMatchObject({ method: 'elicitation/create', id: expect.stringMatching(/^srv-/) });

      // The answer reaches B, which forwards it to A, where the call goes on.
      const answer = await post(
        b.url,
        { jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { confirm: true } } },
        headers,
      );
      expect(answer.status).toBe(202);
      let result: any;
      while (!result) {
        const event = await reader.nextEvent(10_000);
        if (!event) throw new Error(`stream ended: ${reader.raw}`);
        const message = event.data ? JSON.parse(event.data) : undefined;
        if (message?.id === 2) result = message.result;
      }
      expect(result.structuredContent).toEqual({ status: 'success', data: { alert_id: alertId, deleted: true } });
      expect(
        (await invokeTool(b.url, 'list_weather_alerts', {}, headers)).envelope.data.alerts.map(
          (alert: { alert_id: string }) => alert.alert_id,
        ),
      ).not.toContain(alertId);
      await eventually(
        async () => (await pubsubChannels(shared.redis.url, 'mcp:client-response:*')).length === 0,
        5_000,
        'pending request released',
      );
    });
  });
});
