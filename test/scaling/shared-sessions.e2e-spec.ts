import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { Inject, Injectable, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { IsString, MaxLength } from 'class-validator';
import { McpArgs, McpModule, McpTool } from '@nest-mcp/core';
import { envelopeOf, initializeParams, mcpPost, notification, request } from '../fixtures/mcp-http.js';
import { startRedisServer, type RedisServerHandle } from '../../libs/mcp/src/stores/testing/redis-server.harness.js';

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
async function startInstance(name: string, redisUrl: string): Promise<{ app: INestApplication; url: string }> {
  const moduleRef = await Test.createTestingModule({
    imports: [McpModule.forRoot({ name: 'scale', version: '1.0.0', redis: { url: redisUrl } })],
    providers: [EchoTools, { provide: INSTANCE, useValue: name }],
  }).compile();
  const app = moduleRef.createNestApplication({ bodyParser: false, logger: false });
  await app.listen(0, '127.0.0.1');
  const { port } = (app.getHttpServer() as { address(): AddressInfo }).address();
  return { app, url: `http://127.0.0.1:${port}/mcp` };
}

function deleteSession(url: string, sessionId: string): Promise<Response> {
  return fetch(url, { method: 'DELETE', headers: { 'Mcp-Session-Id': sessionId } });
}

describe('two instances behind one Redis share sessions (no sticky sessions needed)', () => {
  let redis: RedisServerHandle;
  let a: { app: INestApplication; url: string };
  let b: { app: INestApplication; url: string };

  beforeAll(async () => {
    redis = await startRedisServer();
    a = await startInstance('A', redis.url);
    b = await startInstance('B', redis.url);
  });

  afterAll(async () => {
    await a?.app.close();
    await b?.app.close();
    await redis?.stop();
  });

  it('a session opened on A serves requests on B; ended on B, it is gone on A', async () => {
    const init = await mcpPost(a.url, request(1, 'initialize', initializeParams()));
    expect(init.status).toBe(200);
    const sessionId = init.headers.get('mcp-session-id');
    expect(sessionId).toEqual(expect.any(String));
    const protocolVersion = init.json.result.protocolVersion as string;
    const headers = { sessionId: sessionId!, protocolVersion };

    expect((await mcpPost(b.url, notification('notifications/initialized'), headers)).status).toBe(202);

    const call = await mcpPost(b.url, request(2, 'tools/call', { name: 'echo', arguments: { text: 'hello' } }), headers);
    expect(call.status).toBe(200);
    const answer = call.messages.find((message) => message.id === 2);
    expect(answer.error).toBeUndefined();
    expect(envelopeOf(answer.result)).toEqual({ status: 'success', data: { text: 'hello', instance: 'B' } });

    // A still knows the session it created.
    expect((await mcpPost(a.url, request(3, 'tools/list'), headers)).status).toBe(200);

    expect((await deleteSession(b.url, sessionId!)).status).toBe(200);

    const afterDelete = await mcpPost(a.url, request(4, 'tools/call', { name: 'echo', arguments: { text: 'again' } }), headers);
    expect(afterDelete.status).toBe(404);
    expect((await deleteSession(a.url, sessionId!)).status).toBe(404);
  });

  it('an id that no instance issued is unknown on both', async () => {
    for (const url of [a.url, b.url]) {
      const response = await mcpPost(url, request(1, 'tools/list'), { sessionId: 'not-a-session', protocolVersion: '2025-11-25' });
      expect(response.status).toBe(404);
    }
  });
});
