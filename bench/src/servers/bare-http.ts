import { createServer } from 'node:http';
import { HOST } from '../ipc.js';

/**
 * The ceiling of any stack on Node: a bare `node:http` server that reads the body, parses the JSON-RPC request,
 * checks the `echo` call by hand and answers the same `tools/call` result our library sends (an envelope as text
 * and `structuredContent`), with no framework and no validation library.
 */
export async function start(): Promise<{ listen(port: number): Promise<number>; close(): Promise<void> }> {
  const http = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      let body: string;
      try {
        const message = JSON.parse(text) as { id?: unknown; method?: unknown; params?: { name?: unknown; arguments?: { text?: unknown } } };
        const echoed = message.params?.arguments?.text;
        if (req.method !== 'POST' || message.method !== 'tools/call' || message.params?.name !== 'echo' || typeof echoed !== 'string') {
          body = JSON.stringify({ jsonrpc: '2.0', id: message.id ?? null, error: { code: -32602, message: 'Invalid params' } });
        } else {
          const envelope = { status: 'success', data: echoed };
          body = JSON.stringify({
            jsonrpc: '2.0',
            id: message.id,
            result: { content: [{ type: 'text', text: JSON.stringify(envelope) }], structuredContent: envelope, isError: false },
          });
        }
      } catch {
        body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      }
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  return {
    listen: (port) => new Promise((resolve) => http.listen(port, HOST, () => resolve((http.address() as { port: number }).port))),
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}
