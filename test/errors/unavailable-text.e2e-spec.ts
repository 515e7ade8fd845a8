import 'reflect-metadata';
import { Injectable, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { AddressInfo } from 'node:net';
import { MCP_ERROR_CODES, McpModule, McpStoreUnavailableError, McpTool } from '@nest-mcp/core';

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
  let app: INestApplication;
  let url: string;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [McpModule.forRoot({ name: 'outage', version: '1.0.0', sessions: { mode: 'stateless' } })],
      providers: [OutageTools],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}/mcp`;
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
