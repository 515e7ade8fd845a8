import 'reflect-metadata';
import { type RunningApp, startWeatherApp } from '../kit/apps.js';
import { post } from '../kit/http.js';

/** A body with a prototype-poisoning key is refused the same way on both adapters (Fastify's parser refuses it). */
describe('prototype-poisoning keys in a POST body', () => {
  let app: RunningApp;
  beforeAll(async () => (app = await startWeatherApp()));
  afterAll(() => app?.close());

  // Pairs, not an object literal: `{ __proto__: … }` would set the literal's prototype instead of a key.
  const bodies: [string, string][] = [
    [
      '__proto__',
      '{"jsonrpc":"2.0","id":"1","method":"tools/call","params":{"name":"get_weather","arguments":{"city":{"__proto__":null}}}}',
    ],
    [
      'constructor.prototype',
      '{"jsonrpc":"2.0","id":"1","method":"tools/call","params":{"name":"get_weather","arguments":{"constructor":{"prototype":{}}}}}',
    ],
    // The same keys spelled with JSON escapes: the parsed key is the same, whatever the text looks like.
    [
      'escaped __proto__',
      '{"jsonrpc":"2.0","id":"1","method":"tools/call","params":{"name":"get_weather","arguments":{"city":{"\\u005f_proto__":null}}}}',
    ],
    [
      'escaped constructor.prototype',
      '{"jsonrpc":"2.0","id":"1","method":"tools/call","params":{"name":"get_weather","arguments":{"\\u0063onstructor":{"prototype":{}}}}}',
    ],
    [
      'escaped top-level __proto__',
      '{"jsonrpc":"2.0","id":"1","method":"tools/list","\\u005F\\u005Fproto\\u005F\\u005F":{"polluted":true}}',
    ],
  ];

  it.each(bodies)('answers 400 Parse error for %s, without echoing the body', async (_key, body) => {
    const answer = await post(app.url, body);
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect(answer.text).not.toContain('get_weather');
  });

  it('still accepts "constructor" as an ordinary string', async () => {
    const body = '{"jsonrpc":"2.0","id":"1","method":"tools/call","params":{"name":"get_weather","arguments":{"city":"constructor"}}}';
    expect((await post(app.url, body)).status).toBe(200);
  });
});
