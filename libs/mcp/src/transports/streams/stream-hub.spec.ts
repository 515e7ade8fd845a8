import type { JsonRpcMessage } from '../../core/json-rpc/json-rpc.types.js';
import { MCP_SESSION_STREAMS, type McpSessionStreams } from '../../core/session-streams.interface.js';
import { bootMcp, closeMcpApps } from '../../../../../test/kit/boot-mcp.js';
import { RecordingResponse } from '../../../../../test/kit/recording-response.js';
import { McpStreamHub } from './stream-hub.js';

const message = (method: string): JsonRpcMessage => ({ jsonrpc: '2.0', method });

/** Boots McpModule and opens a GET stream of session `s1` on this instance, over a recording response. */
async function hubWithSessionStream() {
  const app = await bootMcp([], { options: { http: { streams: { retryMs: 250 } } } });
  const hub = app.get(McpStreamHub);
  const response = new RecordingResponse();
  const stream = hub.open(undefined);
  stream.attach(hub.connect(response.asServerResponse, 'tenant', () => undefined));
  hub.setStandalone('s1', stream);
  return { app, hub, response };
}

describe('McpStreamHub as the session streams port (McpSessionStreams)', () => {
  afterEach(closeMcpApps);

  it('is what MCP_SESSION_STREAMS resolves to in a booted McpModule: the same instance, not a copy', async () => {
    const { app, hub } = await hubWithSessionStream();
    // Compile-time half of the proof: the hub is assignable to the port.
    const port: McpSessionStreams = hub;
    expect(app.get(MCP_SESSION_STREAMS)).toBe(port);
  });

  it('notifyHere and notifySession write only on a session stream this instance holds (single instance)', async () => {
    const { app, response } = await hubWithSessionStream();
    const port = app.get<McpSessionStreams>(MCP_SESSION_STREAMS);
    expect(port.notifyHere('s1', message('notifications/one'))).toBe(true);
    expect(port.notifySession('s1', message('notifications/two'))).toBe(true);
    expect(port.notifyHere('s2', message('notifications/lost'))).toBe(false);
    expect(port.notifySession('s2', message('notifications/lost'))).toBe(false);
    expect(response.frames).toEqual([
      `event: message\ndata: ${JSON.stringify(message('notifications/one'))}\n\n`,
      `event: message\ndata: ${JSON.stringify(message('notifications/two'))}\n\n`,
    ]);
  });

  it('runs beforeStreamsEnd hooks once at shutdown, while streams still take a final message, then ends them', async () => {
    const { app, response } = await hubWithSessionStream();
    const port = app.get<McpSessionStreams>(MCP_SESSION_STREAMS);
    let runs = 0;
    port.beforeStreamsEnd(() => {
      throw new Error('a broken hook');
    });
    port.beforeStreamsEnd(() => {
      runs++;
      port.notifyHere('s1', message('notifications/final'));
    });
    await app.close();
    expect(runs).toBe(1);
    expect(response.frames).toEqual([
      `event: message\ndata: ${JSON.stringify(message('notifications/final'))}\n\n`,
      'retry: 250\n\n',
      '<end>',
    ]);
  });
});
