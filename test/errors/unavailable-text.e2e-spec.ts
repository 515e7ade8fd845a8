import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { MCP_ERROR_CODES, McpStoreUnavailableError, McpTool } from '@nest-mcp/core';
import { listenMcp, type RunningApp } from '../kit/apps.js';

const SECRET_HOST = 'redis-internal.example:6379';

@Injectable()
class OutageTools {
  @McpTool({ description: 'Reads a store that is down' })
  readStore(): string {
    throw new McpStoreUnavailableError(`Redis at ${SECRET_HOST} is unavailable (ECONNREFUSED); retry later.`);
  }

  @McpTool({ description: 'Throws an ordinary error that merely calls itself McpStoreUnavailableError' })
  impostor(): string {
    throw Object.assign(new Error('not a store error'), { name: 'McpStoreUnavailableError' });
  }
}

/** One error text for UNAVAILABLE, from the catalogue, over a real socket; the class decides, not the name. */
describe('UNAVAILABLE over HTTP', () => {
  let app: RunningApp;
  let url: string;

  beforeAll(async () => {
    // Nest's body parser stays on, as an app that is not MCP-only has it.
    app = await listenMcp({ name: 'outage', version: '1.0.0', sessions: { mode: 'stateless' } }, [OutageTools], { bodyParser: true });
    url = app.url;
  });

  afterAll(async () => app?.close());

  async function callTool(
    name: string,
  ): Promise<{ structuredContent: { status: string; error: Record<string, unknown> }; isError: boolean }> {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { result: never };
    return body.result;
  }

  it('a tool hitting a store outage answers the catalogue text, retryable, and never names the host', async () => {
    const result = await callTool('read_store');
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({
      status: 'error',
      error: {
        code: 'UNAVAILABLE',
        message: MCP_ERROR_CODES.UNAVAILABLE.message(),
        retryable: true,
        retry_after_ms: MCP_ERROR_CODES.UNAVAILABLE.retryAfterMs,
      },
    });
    expect(JSON.stringify(result)).not.toContain(SECRET_HOST);
  });

  it('an error that only borrows the name is an internal error', async () => {
    const result = await callTool('impostor');
    expect(result.structuredContent.error).toMatchObject({ code: 'INTERNAL_ERROR', retryable: false });
  });
});
