import { jest } from '@jest/globals';
import { McpOriginGuard } from '../../libs/mcp/src/transports/http/origin.guard.js';
import { listenMcp, type RunningApp } from '../kit/apps.js';
import { post, rpc } from '../kit/http.js';

/**
 * One MCP POST has its Host and Origin checked once on the run's adapter: on Fastify the early `onRequest` hook checks
 * them before the body is read, and `McpOriginGuard` then skips the request instead of checking it again.
 */
describe('Host and Origin checks per MCP POST', () => {
  let app: RunningApp;

  beforeAll(async () => {
    app = await listenMcp({ name: 'origin-once', version: '1.0.0', http: { allowedHosts: ['127.0.0.1'] } });
  });
  afterAll(() => app?.close());
  afterEach(() => jest.restoreAllMocks());

  it('an allowed Host and Origin are checked once, and the request is served', async () => {
    const check = jest.spyOn(McpOriginGuard.prototype, 'check');
    const answer = await post(app.url, rpc(1, 'ping'), { Origin: 'http://localhost:5173' });
    expect(answer.status).toBe(200);
    expect(check).toHaveBeenCalledTimes(1);
  });

  it('a foreign Origin is refused (403) by that one check', async () => {
    const check = jest.spyOn(McpOriginGuard.prototype, 'check');
    const answer = await post(app.url, rpc(1, 'ping'), { Origin: 'http://evil.example' });
    expect(answer.status).toBe(403);
    expect(check).toHaveBeenCalledTimes(1);
  });
});
