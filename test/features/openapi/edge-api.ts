import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small HTTP API with its own OpenAPI document, for what the helpdesk does not do: answer slowly, answer too
 * much, fail with a 500, and declare a response schema.
 */
export const EDGE_DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Edge cases', version: '1.0.0' },
  paths: {
    '/status': {
      get: {
        operationId: 'status',
        summary: 'Service status',
        responses: {
          '200': {
            description: 'ok',
            content: {
              'application/json': {
                schema: { type: 'object', properties: { ok: { type: 'boolean' }, region: { type: 'string' } }, required: ['ok', 'region'] },
              },
            },
          },
        },
      },
    },
    '/slow': { get: { operationId: 'slow', responses: { '200': { description: 'ok' } } } },
    '/big': { get: { operationId: 'big', responses: { '200': { description: 'ok' } } } },
    '/boom': { get: { operationId: 'boom', responses: { '200': { description: 'ok' } } } },
    '/upload': {
      post: {
        operationId: 'upload',
        requestBody: { content: { 'multipart/form-data': { schema: { type: 'object' } } } },
        responses: { '201': { description: 'ok' } },
      },
    },
  },
};

export interface EdgeApi {
  readonly baseUrl: string;
  close(): Promise<void>;
}

/** Listens on a free port of 127.0.0.1. */
export async function startEdgeApi(): Promise<EdgeApi> {
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((request, response) => {
    switch (request.url) {
      case '/status':
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, region: 'eu-1' }));
        return;
      case '/slow': {
        const timer = setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end('{"late":true}'), 3_000);
        timers.add(timer);
        return;
      }
      case '/big':
        // Chunked, no Content-Length: the reader must stop by counting.
        response.writeHead(200, { 'content-type': 'application/json' });
        for (let chunk = 0; chunk < 64; chunk++) response.write('x'.repeat(1024));
        response.end();
        return;
      case '/boom':
        response.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"database password is hunter2"}');
        return;
      default:
        response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
