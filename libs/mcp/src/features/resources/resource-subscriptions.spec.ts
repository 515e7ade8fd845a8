import type { McpRequestContext } from '../../core/mcp-request-context.interface.js';
import type { JsonRpcMessage } from '../../core/json-rpc/json-rpc.types.js';
import type { McpSessionStreams } from '../../core/session-streams.interface.js';
import { subscriberFor, type ResourceSubscriber } from './resource-subscriber.js';
import { McpResourceSubscriptions } from './resource-subscriptions.js';
import { MAX_SUBSCRIPTIONS_PER_SUBSCRIBER } from './resource-subscription.limits.js';
import type { McpSessionService } from '../../sessions/mcp-session.service.js';

const UPDATED: JsonRpcMessage = { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'test://a' } };

/** Stands in for the session service: records the end listener so a test can end a session. */
function sessions() {
  let listener: (sessionId: string) => void = () => undefined;
  return {
    onEnd: (fn: (sessionId: string) => void) => {
      listener = fn;
    },
    end: (sessionId: string) => listener(sessionId),
  };
}

function recorder(key: string, reachable = true): ResourceSubscriber & { received: JsonRpcMessage[] } {
  const received: JsonRpcMessage[] = [];
  return {
    key,
    received,
    deliver: (message) => {
      if (reachable) received.push(message);
      return reachable;
    },
  };
}

describe('McpResourceSubscriptions', () => {
  it('delivers to every subscriber of the URI, once per subscriber, and counts those reached', () => {
    const subscriptions = new McpResourceSubscriptions(sessions() as unknown as McpSessionService);
    const one = recorder('s1');
    const two = recorder('s2');
    const away = recorder('s3', false);
    subscriptions.subscribe('test://a', one);
    subscriptions.subscribe('test://a', one);
    subscriptions.subscribe('test://a', two);
    subscriptions.subscribe('test://a', away);
    subscriptions.subscribe('test://b', two);
    expect(subscriptions.deliver('test://a', UPDATED)).toBe(2);
    expect(one.received).toEqual([UPDATED]);
    expect(two.received).toEqual([UPDATED]);
    expect(subscriptions.deliver('test://nobody', UPDATED)).toBe(0);
  });

  it('unsubscribes one URI, and forgets a whole subscriber', () => {
    const subscriptions = new McpResourceSubscriptions(sessions() as unknown as McpSessionService);
    const one = recorder('s1');
    subscriptions.subscribe('test://a', one);
    subscriptions.subscribe('test://b', one);
    subscriptions.unsubscribe('test://a', 's1');
    subscriptions.unsubscribe('test://never', 's1');
    expect(subscriptions.urisOf('s1')).toEqual(['test://b']);
    expect(subscriptions.deliver('test://a', UPDATED)).toBe(0);
    subscriptions.forget('s1');
    expect(subscriptions.urisOf('s1')).toEqual([]);
    expect(subscriptions.deliver('test://b', UPDATED)).toBe(0);
  });

  it(`refuses more than ${MAX_SUBSCRIPTIONS_PER_SUBSCRIBER} URIs per subscriber, but re-subscribing is fine`, () => {
    const subscriptions = new McpResourceSubscriptions(sessions() as unknown as McpSessionService);
    const one = recorder('s1');
    for (let index = 0; index < MAX_SUBSCRIPTIONS_PER_SUBSCRIBER; index++)
      expect(subscriptions.subscribe(`test://r/${index}`, one)).toBe(true);
    expect(subscriptions.subscribe('test://one-too-many', one)).toBe(false);
    expect(subscriptions.subscribe('test://r/0', one)).toBe(true);
    expect(subscriptions.subscribe('test://one-too-many', recorder('s2'))).toBe(true);
  });
});

describe('subscriberFor', () => {
  const sent: Array<[string, JsonRpcMessage]> = [];
  const streams = {
    notifySession: (sessionId: string, message: JsonRpcMessage) => {
      sent.push([sessionId, message]);
      return sessionId === 'open';
    },
  } as unknown as McpSessionStreams;

  beforeEach(() => sent.splice(0));

  it('over Streamable HTTP, delivers on the session GET stream through the session streams', () => {
    const subscriber = subscriberFor(
      { transport: 'http', protocolVersion: '2025-11-25', sessionId: 'open', send: () => undefined },
      streams,
    )!;
    expect(subscriber.key).toBe('http:open');
    expect(subscriber.deliver(UPDATED)).toBe(true);
    expect(sent).toEqual([['open', UPDATED]]);
    expect(subscriberFor({ transport: 'http', protocolVersion: '2025-11-25', sessionId: 'closed' }, streams)!.deliver(UPDATED)).toBe(false);
  });

  it('over Streamable HTTP without a session, there is nobody to deliver to', () => {
    expect(subscriberFor({ transport: 'http', protocolVersion: '2025-11-25', send: () => undefined }, streams)).toBeUndefined();
  });

  it.each<[string, McpRequestContext['transport'], Partial<McpRequestContext>, string]>([
    ['2024-11-05 HTTP+SSE', 'sse', { sessionId: 'sse-1', cancellationScope: 'sse-1' }, 'sse:sse-1'],
    ['stdio', 'stdio', { cancellationScope: 'stdio' }, 'stdio:stdio'],
  ])('over %s, delivers on the connection', (_label, transport, extra, key) => {
    const written: JsonRpcMessage[] = [];
    const subscriber = subscriberFor(
      { transport, protocolVersion: '2024-11-05', ...extra, send: (message) => written.push(message) },
      streams,
    )!;
    expect(subscriber.key).toBe(key);
    expect(subscriber.deliver(UPDATED)).toBe(true);
    expect(written).toEqual([UPDATED]);
    expect(sent).toEqual([]);
  });

  it("forgets a session's subscriptions when the session ends", () => {
    const ended = sessions();
    const subscriptions = new McpResourceSubscriptions(ended as unknown as McpSessionService);
    const http = recorder('http:s1');
    const sseSubscriber = recorder('sse:s2');
    subscriptions.subscribe('test://a', http);
    subscriptions.subscribe('test://a', sseSubscriber);
    ended.end('s1');
    expect(subscriptions.deliver('test://a', UPDATED)).toBe(1);
    expect(http.received).toEqual([]);
    expect(sseSubscriber.received).toEqual([UPDATED]);
  });
});
