// The CPU of one McpClient exchange (a `tools/call` over Streamable HTTP answered with JSON), for one or more builds
// of the library, interleaved in one run so a busy machine weighs on each alike:
//
//   node bench/client-exchange.mjs --dist libs/mcp/dist --dist path/to/other/dist [--rounds 5] [--calls 4000] [--concurrency 1,16]
//
// A bare node:http server answers in a child process of its own; each build's client runs in a fresh child too, and
// reports the CPU its process used (process.cpuUsage) per call over the measured calls, and calls per second.
import { fork } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const role = process.argv[2];
if (role === '--serve') serve();
else if (role === '--client') await client(process.argv[3], Number(process.argv[4]), Number(process.argv[5]), process.argv[6]);
else await main();

function option(name, fallback) {
  const values = [];
  for (let i = 2; i < process.argv.length; i++) if (process.argv[i] === name) values.push(process.argv[++i]);
  return values.length > 0 ? values : fallback;
}

async function main() {
  const dists = option('--dist', ['libs/mcp/dist']).map((dist) => path.resolve(dist));
  const rounds = Number(option('--rounds', ['5'])[0]);
  const calls = Number(option('--calls', ['4000'])[0]);
  const concurrencies = option('--concurrency', ['1,16'])[0].split(',').map(Number);
  const server = fork(process.argv[1], ['--serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise((resolve) => server.once('message', resolve));
  const url = `http://127.0.0.1:${port}/mcp`;
  const results = new Map(); // `${dist}|${concurrency}` → [{ cpuUs, perSecond }]
  try {
    for (let round = 0; round < rounds; round++) {
      // The order rotates each round.
      const order = dists.map((_, i) => dists[(i + round) % dists.length]);
      for (const concurrency of concurrencies) {
        for (const dist of order) {
          const child = fork(process.argv[1], ['--client', dist, String(calls), String(concurrency), url], {
            stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
          });
          const result = await new Promise((resolve, reject) => {
            child.once('message', resolve);
            child.once('exit', (code) => code !== 0 && reject(new Error(`the client of ${dist} exited with ${code}`)));
          });
          const key = `${dist}|${concurrency}`;
          results.set(key, [...(results.get(key) ?? []), result]);
          process.stderr.write(
            `round ${round + 1} ${path.relative(process.cwd(), dist)} c=${concurrency}: ${result.cpuUs.toFixed(1)} µs CPU/call, ${result.perSecond.toFixed(0)} calls/s\n`,
          );
        }
      }
    }
  } finally {
    server.kill();
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(`| build | concurrency | client CPU per call (median of ${rounds}) | calls/s (median) |`);
  console.log('| --- | --- | --- | --- |');
  for (const concurrency of concurrencies) {
    for (const dist of dists) {
      const runs = results.get(`${dist}|${concurrency}`);
      console.log(
        `| ${path.relative(process.cwd(), dist)} | ${concurrency} | ${median(runs.map((r) => r.cpuUs)).toFixed(1)} µs | ${median(runs.map((r) => r.perSecond)).toFixed(0)} |`,
      );
    }
  }
}

/** A bare MCP server: `initialize` without a session, `tools/call` echoing its text, 202 for notifications. */
function serve() {
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      if (request.method !== 'POST') return void response.writeHead(405).end();
      const message = JSON.parse(body);
      if (message.id === undefined) return void response.writeHead(202).end();
      const result =
        message.method === 'initialize'
          ? { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'bare', version: '1.0.0' } }
          : { content: [{ type: 'text', text: message.params?.arguments?.text ?? '' }] };
      const text = JSON.stringify({ jsonrpc: '2.0', id: message.id, result });
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.send(server.address().port));
}

async function client(dist, calls, concurrency, url) {
  const { McpClient } = await import(pathToFileURL(path.join(dist, 'client/mcp-client.js')).href);
  const mcp = new McpClient({ url, protocol: 'legacy', reconnect: false });
  await mcp.connect();
  const run = async (count) => {
    let next = 0;
    const worker = async () => {
      while (next++ < count) {
        const result = await mcp.callTool('echo', { text: 'hello' });
        if (result.content?.[0]?.text !== 'hello') throw new Error(`unexpected answer ${JSON.stringify(result)}`);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  };
  await run(Math.min(calls, 2_000)); // warm-up
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  await run(calls);
  const used = process.cpuUsage(cpu);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await mcp.close();
  process.send({ cpuUs: (used.user + used.system) / calls, perSecond: calls / seconds });
}
