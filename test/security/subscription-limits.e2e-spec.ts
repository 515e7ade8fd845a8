import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { McpResourceParams, McpResourceTemplate } from '@nest-mcp/core';
import { startRedisServer, type RedisServerHandle } from '../kit/redis-server.harness.js';
import { listenMcp, type RunningApp } from '../kit/apps.js';
import { openSession, post, rpc, sessionHeaders } from '../kit/http.js';

/** A template matches URIs of any length: what a session may subscribe to is bounded by the server, not the template. */
@Injectable()
class NotesResource {
  @McpResourceTemplate({ uriTemplate: 'notes://{id}', name: 'note', description: 'One note', mimeType: 'text/plain' })
  read(@McpResourceParams() params: { id: string }) {
    return `note ${params.id.length}`;
  }
}

const noteUri = (fill: string, characters: number) => `notes://${fill.repeat(characters)}`;

describe.each(['memory', 'redis'] as const)('resources/subscribe bounds what one session watches (%s store)', (mode) => {
  let redis: RedisServerHandle | undefined;
  let server: RunningApp;

  beforeAll(async () => {
    if (mode === 'redis') redis = await startRedisServer();
    server = await listenMcp({ name: 'notes', version: '1.0.0', ...(redis && { redis: { url: redis.url } }) }, [NotesResource]);
  });

  afterAll(async () => {
    await server?.app.close();
    await redis?.stop();
  });

  async function subscribe(url: string, sessionId: string, uri: string) {
    return (await post(url, rpc(7, 'resources/subscribe', { uri }), sessionHeaders(sessionId, '2025-11-25'))).json;
  }

  it('refuses a URI once the session watches 64 KiB of URI text, and takes small ones again after an unsubscribe', async () => {
    const { sessionId } = await openSession(server.url);
    const first = noteUri('a', 30_000);
    expect(await subscribe(server.url, sessionId, first)).toMatchObject({ result: {} });
    expect(await subscribe(server.url, sessionId, noteUri('b', 30_000))).toMatchObject({ result: {} });
    const refused = await subscribe(server.url, sessionId, noteUri('c', 30_000));
    expect(refused).toMatchObject({ error: { code: -32600 } });
    expect(refused.error.message).toContain('65536 characters of URIs');
    expect(JSON.stringify(refused).length).toBeLessThan(1_000); // the refused URI is not echoed back
    // Re-subscribing to a watched URI is no new subscription; a small new one still fits.
    expect(await subscribe(server.url, sessionId, first)).toMatchObject({ result: {} });
    expect(await subscribe(server.url, sessionId, 'notes://short')).toMatchObject({ result: {} });
    const unsubscribed = await post(server.url, rpc(8, 'resources/unsubscribe', { uri: first }), sessionHeaders(sessionId, '2025-11-25'));
    expect(unsubscribed.json).toMatchObject({ result: {} });
    expect(await subscribe(server.url, sessionId, noteUri('c', 30_000))).toMatchObject({ result: {} });
  });

  it('counts per session: another session of the same client starts with its own budget', async () => {
    const { sessionId } = await openSession(server.url);
    expect(await subscribe(server.url, sessionId, noteUri('d', 60_000))).toMatchObject({ result: {} });
    expect(await subscribe(server.url, sessionId, noteUri('e', 6_000))).toMatchObject({ error: { code: -32600 } });
    const other = await openSession(server.url);
    expect(await subscribe(server.url, other.sessionId, noteUri('e', 6_000))).toMatchObject({ result: {} });
  });
});
