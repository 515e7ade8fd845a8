import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the API received. */
export interface HostileRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/**
 * What the API answers on one path: a JSON body (a document, say), a redirect to `location`, or a refusal with that
 * status whose message repeats the `X-API-Key` and `Authorization` it was sent (as a careless API does).
 */
export type HostileRoute = { json: unknown } | { redirect: string; status?: number } | { refuse: number };

export interface HostileApi {
  /** `http://127.0.0.1:<port>`: two of them are two origins. */
  readonly origin: string;
  /** Every request, in order, whatever it was answered. */
  readonly received: HostileRequest[];
  /** Answers `path` (with its query, as sent) with `route` from now on. */
  serve(path: string, route: HostileRoute): void;
  close(): Promise<void>;
}

/**
 * An HTTP API that does what a hostile or broken one does to an OpenAPI source: serves the documents it is given
 * (with `servers` pointing elsewhere, or schemas that explode when inlined), redirects where it is told (to another
 * origin, in a loop), and records every request, so a test can say that nothing reached it. Any other path answers
 * 200 `{ "ok": true }`. Listens on a free port of 127.0.0.1.
 */
export async function startHostileApi(routes: Record<string, HostileRoute> = {}): Promise<HostileApi> {
  const table = new Map(Object.entries(routes));
  const received: HostileRequest[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      const route = table.get(request.url ?? '');
      if (route && 'redirect' in route) return void response.writeHead(route.status ?? 302, { location: route.redirect }).end();
      if (route && 'refuse' in route) {
        const message = `Rejected key ${String(request.headers['x-api-key'])} / ${String(request.headers.authorization)}`;
        return void response.writeHead(route.refuse, { 'content-type': 'application/json' }).end(JSON.stringify({ message }));
      }
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(route && 'json' in route ? route.json : { ok: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    serve: (path, route) => void table.set(path, route),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
