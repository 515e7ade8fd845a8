import 'reflect-metadata';
import { Inject, Injectable } from '@nestjs/common';
import { IsString, MaxLength } from 'class-validator';
import { McpArgs, McpTool } from '@nest-mcp/core';
import { listenMcp, type RunningApp } from '../kit/apps.js';
import { instancesOnOneRedis } from './scaling-support.js';
import { envelopeOf, initializeParams, notification, openSession, post, rpc, sessionHeaders } from '../kit/http.js';
import { SseReader } from '../kit/sse.js';
import { eventually } from '../kit/eventually.js';
import { McpStreamHub } from '../../libs/mcp/src/transports/streams/stream-hub.js';

/** Which instance answered, so the test can tell that B, not A, ran the tool. */
const INSTANCE = Symbol('INSTANCE');

class EchoDto {
  @IsString()
  @MaxLength(100)
  text: string;
}

@Injectable()
class EchoTools {
  constructor(@Inject(INSTANCE) private readonly instance: string) {}

  @McpTool({ name: 'echo', description: 'Returns the text and the name of the instance that ran the call.' })
  echo(@McpArgs() args: EchoDto): { text: string; instance: string } {
    return { text: args.text, instance: this.instance };
  }
}

/** One instance of a horizontally scaled server: its own process state, the shared Redis. */
function startInstance(name: string, redisUrl: string): Promise<RunningApp> {
  return listenMcp({ name: 'scale', version: '1.0.0', redis: { url: redisUrl } }, [EchoTools, { provide: INSTANCE, useValue: name }], {
    forceCloseConnections: false,
  });
}

function deleteSession(url: string, sessionId: string): Promise<Response> {
  return fetch(url, { method: 'DELETE', headers: { 'Mcp-Session-Id': sessionId } });
}

describe('two instances behind one Redis share sessions (no sticky sessions needed)', () => {
  const shared = instancesOnOneRedis({ count: 2, start: (redisUrl, index) => startInstance('AB'[index], redisUrl) });
  let a: RunningApp;
  let b: RunningApp;
  beforeAll(() => ([a, b] = shared.apps));

  it('a session opened on A serves requests on B; ended on B, it is gone on A', async () => {
    const init = await post(a.url, rpc(1, 'initialize', initializeParams()));
    expect(init.status).toBe(200);
    const sessionId = init.headers.get('mcp-session-id');
    expect(sessionId).toEqual(expect.any(String));
    const protocolVersion = init.json.result.protocolVersion as string;
    const headers = sessionHeaders(sessionId!, protocolVersion);

    expect((await post(b.url, notification('notifications/initialized'), headers)).status).toBe(202);

    const call = await post(b.url, rpc(2, 'tools/call', { name: 'echo', arguments: { text: 'hello' } }), headers);
    expect(call.status).toBe(200);
    const answer = call.messages.find((message) => message.id === 2);
    expect(answer.error).toBeUndefined();
    expect(envelopeOf(answer.result)).toEqual({ status: 'success', data: { text: 'hello', instance: 'B' } });

    // A still knows the session it created.
    expect((await post(a.url, rpc(3, 'tools/list'), headers)).status).toBe(200);

    expect((await deleteSession(b.url, sessionId!)).status).toBe(200);

    const afterDelete = await post(a.url, rpc(4, 'tools/call', { name: 'echo', arguments: { text: 'again' } }), headers);
    expect(afterDelete.status).toBe(404);
    expect((await deleteSession(a.url, sessionId!)).status).toBe(404);
  });

  it('a DELETE on A ends the session’s GET stream held by B', async () => {
    const { sessionId } = await openSession(a.url);
    const controller = new AbortController();
    const response = await fetch(b.url, {
      headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-11-25' },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const reader = new SseReader(response);
    try {
      await eventually(() => b.app.get(McpStreamHub).standaloneOf(sessionId) !== undefined, 5_000, 'B holds the GET stream');
      expect((await deleteSession(a.url, sessionId)).status).toBe(200);
      // Before: B's stream stayed open (keep-alives only) until the client went away.
      let item = await reader.next(5_000);
      while (item !== undefined) item = await reader.next(5_000);
      expect(b.app.get(McpStreamHub).standaloneOf(sessionId)).toBeUndefined();
    } finally {
      await reader.cancel().catch(() => undefined);
      controller.abort();
    }
  });

  it('an id that no instance issued is unknown on both', async () => {
    for (const url of [a.url, b.url]) {
      const response = await post(url, rpc(1, 'tools/list'), { 'Mcp-Session-Id': 'not-a-session', 'MCP-Protocol-Version': '2025-11-25' });
      expect(response.status).toBe(404);
    }
  });
});
