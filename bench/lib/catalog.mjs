// The catalog part: servers of 10 .. 10,000 generated tools (bench/src/catalog.ts), each in a fresh process.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { jsonRpcOf, request, startServer } from './servers.mjs';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** One JSON-RPC request on a keep-alive socket: the message and the round trip in ms. */
async function rpc(server, agent, method, params) {
  const started = performance.now();
  const response = await request(server.port, { headers: HEADERS, body: { jsonrpc: '2.0', id: 1, method, params }, agent });
  const ms = performance.now() - started;
  const message = jsonRpcOf(response);
  if (response.status !== 200 || !message || message.error)
    throw new Error(`${method} answered ${response.status}: ${response.text.slice(0, 300)}`);
  return { result: message.result, ms };
}

/** `times` requests in a row after `warm` unmeasured ones: the median round trip (ms). */
async function timed(server, agent, times, warm, send) {
  for (let i = 0; i < warm; i++) await send(i);
  const rounds = [];
  for (let i = 0; i < times; i++) rounds.push((await send(i)).ms);
  return { ms: median(rounds) };
}

/**
 * `body` under load (autocannon, 8 connections, 1 s of warm-up then `seconds`): req/s and the server's CPU µs per
 * request. Sequential requests leave the server idle between them, which inflates CPU per request several times
 * (timers, wake-ups); under load the figure is the cost of the request itself, as in the throughput table.
 */
async function loaded(server, body, seconds) {
  const { default: autocannon } = await import('autocannon');
  const run = (duration) =>
    autocannon({ url: server.url, method: 'POST', headers: HEADERS, body: JSON.stringify(body), connections: 8, duration, pipelining: 1 });
  await run(1);
  const cpuBefore = await server.cpu();
  const result = await run(seconds);
  const cpuUs = (await server.cpu()) - cpuBefore;
  const failures = (result.non2xx ?? 0) + (result.errors ?? 0) + (result.timeouts ?? 0);
  if (failures > 0) throw new Error(`${body.method} under load: ${failures} failures`);
  return { rps: result.requests.average, cpuUs: cpuUs / result.requests.total };
}

/** Every page of `tools/list`: the number of tools and pages, and the time of the walk. */
async function walk(server, agent) {
  const started = performance.now();
  let cursor;
  let tools = 0;
  let pages = 0;
  const names = new Set();
  do {
    const { result } = await rpc(server, agent, 'tools/list', cursor === undefined ? {} : { cursor });
    for (const tool of result.tools) names.add(tool.name);
    tools += result.tools.length;
    pages++;
    cursor = result.nextCursor;
  } while (cursor !== undefined);
  if (names.size !== tools) throw new Error(`the walk saw ${tools} tools but ${names.size} names: a page repeated one`);
  return { tools, pages, ms: performance.now() - started, names: [...names] };
}

/** Boots a catalog of `tools` tools and measures it. */
export async function catalogOnce(tools, { log }) {
  const server = await startServer('catalog', { args: ['--tools', String(tools)] });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const info = server.info;
    const firstPage = await timed(server, agent, 30, 10, () => rpc(server, agent, 'tools/list', {}));
    const pageSize = (await rpc(server, agent, 'tools/list', {})).result.tools.length;
    await walk(server, agent);
    const full = await walk(server, agent);
    if (full.tools !== tools) throw new Error(`the walk found ${full.tools} of ${tools} tools`);
    // A tool from the middle of the catalog, with every field of its DTO.
    const name = full.names[Math.floor(full.names.length / 2)];
    const args = { query: 'q-1', owner: 'acme', status: 'open', limit: 10, tags: ['a', 'b'], filter: { region: 'eu' } };
    const call = await timed(server, agent, 300, 100, async (i) => {
      const answer = await rpc(server, agent, 'tools/call', { name, arguments: { ...args, query: `q-${i}` } });
      if (answer.result.isError || !JSON.stringify(answer.result.content).includes(`q-${i}`))
        throw new Error(`tools/call ${name} answered ${JSON.stringify(answer.result).slice(0, 300)}`);
      return answer;
    });
    const pageLoad = await loaded(server, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, 3);
    const callLoad = await loaded(server, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }, 3);
    const row = {
      tools,
      bootMs: info.bootMs,
      bootCpuMs: info.bootCpuMs,
      declareMs: info.declareMs,
      declaredHeapMiB: info.declaredHeap / 1048576,
      bootedHeapMiB: info.bootedHeap / 1048576,
      pageSize,
      firstPageMs: firstPage.ms,
      firstPageCpuUs: pageLoad.cpuUs,
      firstPageRps: pageLoad.rps,
      walkMs: full.ms,
      pages: full.pages,
      callMs: call.ms,
      callCpuUs: callLoad.cpuUs,
      callRps: callLoad.rps,
    };
    log(
      `catalog ${tools}: boot ${row.bootMs.toFixed(0)} ms, heap +${row.bootedHeapMiB.toFixed(1)} MiB (declared ${row.declaredHeapMiB.toFixed(1)}), first page ${row.firstPageMs.toFixed(2)} ms (${row.firstPageCpuUs.toFixed(0)} µs CPU), walk ${row.pages} pages ${row.walkMs.toFixed(0)} ms, call ${row.callMs.toFixed(2)} ms (${row.callCpuUs.toFixed(0)} µs CPU)`,
    );
    return row;
  } finally {
    agent.destroy();
    await server.stop();
  }
}

const QUERIES = ['approve a refund', 'find the invoice of a customer', 'export shipment report', 'cancel order', 'audit contract owner'];

/** Tool search on a catalog of `tools` (a server of its own, `--search`): median round trip and server CPU per search. */
export async function searchOnce(tools, { log }) {
  const server = await startServer('catalog', { args: ['--tools', String(tools), '--search'] });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const search = (i) => rpc(server, agent, 'tools/call', { name: 'search_tools', arguments: { query: QUERIES[i % QUERIES.length] } });
    const first = await search(0);
    const found = first.result.structuredContent?.data?.tools ?? [];
    if (first.result.isError || found.length === 0)
      throw new Error(`search_tools found nothing: ${JSON.stringify(first.result).slice(0, 300)}`);
    const round = await timed(server, agent, 30, 10, search);
    const load = await loaded(
      server,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_tools', arguments: { query: QUERIES[0] } } },
      3,
    );
    log(
      `catalog ${tools} search: ${round.ms.toFixed(2)} ms round trip, ${load.cpuUs.toFixed(0)} µs CPU, index heap +${(server.info.bootedHeap / 1048576).toFixed(1)} MiB booted`,
    );
    return {
      searchMs: round.ms,
      searchCpuUs: load.cpuUs,
      searchBootedHeapMiB: server.info.bootedHeap / 1048576,
      searchBootMs: server.info.bootMs,
    };
  } finally {
    agent.destroy();
    await server.stop();
  }
}

/** Each size in a fresh process, `runs` times; the medians of each figure. */
export async function catalogScaling(sizes, runs, { log }) {
  const rows = [];
  for (const tools of sizes) {
    const samples = [];
    for (let run = 0; run < runs; run++) samples.push({ ...(await catalogOnce(tools, { log })), ...(await searchOnce(tools, { log })) });
    const row = { tools, runs };
    for (const key of Object.keys(samples[0])) if (key !== 'tools') row[key] = median(samples.map((s) => s[key]));
    rows.push(row);
  }
  return rows;
}

const f = (n, digits = 0) => (n === undefined || Number.isNaN(n) ? 'n/a' : n.toFixed(digits));

/** The catalog rows as a Markdown table. */
export function catalogTable(rows) {
  const lines = [
    '| tools | boot ms (CPU ms) | heap MiB (module) | KiB/tool | heap MiB (declared classes) | first page ms | page server CPU µs | full walk ms (pages) | call ms | call server CPU µs | search ms | search server CPU µs | search heap MiB |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.tools} | ${f(r.bootMs)} (${f(r.bootCpuMs)}) | ${f(r.bootedHeapMiB, 1)} | ${f((r.bootedHeapMiB * 1024) / r.tools, 1)} | ${f(r.declaredHeapMiB, 1)} | ${f(r.firstPageMs, 2)} | ${f(r.firstPageCpuUs)} | ${f(r.walkMs)} (${r.pages}) | ${f(r.callMs, 2)} | ${f(r.callCpuUs)} | ${f(r.searchMs, 2)} | ${f(r.searchCpuUs)} | ${f(r.searchBootedHeapMiB, 1)} |`,
    );
  }
  return lines.join('\n');
}

/** The RESULTS.md section of the catalog part. */
export function catalogSection(rows) {
  // The largest first page: a catalog smaller than a page fills less than one.
  const pageSize = Math.max(0, ...rows.map((r) => r.pageSize ?? 0)) || undefined;
  return [
    '## Large catalogs',
    '',
    `An app of N generated tools over min(N, 100) providers, each tool with its own 7-field DTO class (two strings with lengths, a 3-value enum, an optional int range, an optional string array, an optional string, an optional nested object of its own class with an enum and a string), each size in a fresh process (\`bench/src/catalog.ts\`, stack \`catalog\`), ${rows[0]?.runs ?? 1} run(s) each (medians). "boot" is \`NestFactory.create()\` + \`app.init()\` (wall time, and in brackets the CPU time of all the process's threads, garbage collection included). "heap (module)" is heapUsed after full collections once booted minus heapUsed after the classes were declared: what the booted server holds for the catalog (with Nest's own few MiB); "declared classes" is what declaring the application's DTO classes and decorators holds before the app exists (class-validator's and reflect-metadata's records: the application's cost, not the module's). \`tools/list\` pages hold ${pageSize ?? 100} tools (the \`lists.pageSize\` option's default); "first page" is the median round trip of 30 first pages on a keep-alive socket after 10 unmeasured, "page server CPU" the server process's CPU time per first page under load (autocannon, 8 connections, 3 s: the steadier figure on a loaded machine, and the server time the goal is read against); the walk follows \`nextCursor\` to the end and checks every tool came once. "call" is the median of 300 \`tools/call\` of a tool from the middle of the catalog with all its fields (after 100 unmeasured), its server CPU measured under load as the page's; "search" the median round trip of 30 \`search_tools\` calls (5 queries in turn, such as "approve a refund", each returning up to 10 tools with their schemas) on a server of its own with \`tools: { search: { mode: 'beside' } }\`, and its server CPU per search under load; that server's heap (module) with the index: "search heap".`,
    '',
    catalogTable(rows),
    '',
  ];
}

/** The catalog goals: 10,000 tools boot ≤ 3 s and hold ≤ 50 MiB, a page ≤ 2 ms of server time, calls independent of size. */
export function catalogGoals(rows) {
  if (!rows?.length) return [];
  const largest = rows.reduce((a, b) => (b.tools > a.tools ? b : a));
  const smallest = rows.reduce((a, b) => (b.tools < a.tools ? b : a));
  const goals = [
    {
      goal: `${largest.tools} tools boot in ≤ 3 s`,
      value: `${f(largest.bootMs)} ms (${f(largest.bootCpuMs)} ms of CPU; ${smallest.tools} tools: ${f(smallest.bootMs)} ms)`,
      met: largest.bootMs <= 3000,
    },
    {
      goal: `${largest.tools} tools hold ≤ 50 MiB of heap once booted`,
      value: `${f(largest.bootedHeapMiB, 1)} MiB (${f((largest.bootedHeapMiB * 1024) / largest.tools, 1)} KiB per tool)`,
      met: largest.bootedHeapMiB <= 50,
    },
    {
      goal: `a tools/list page at ${largest.tools} tools in ≤ 2 ms of server time`,
      value: `${f(largest.firstPageCpuUs)} µs CPU per page (round trip ${f(largest.firstPageMs, 2)} ms)`,
      met: largest.firstPageCpuUs <= 2000,
    },
    {
      goal: `a tools/call at ${largest.tools} tools costs ≤ 1.2× one at ${smallest.tools}`,
      value: `${f(largest.callCpuUs)} vs ${f(smallest.callCpuUs)} µs CPU (round trips ${f(largest.callMs, 2)} vs ${f(smallest.callMs, 2)} ms)`,
      met: largest.callCpuUs <= smallest.callCpuUs * 1.2,
    },
  ];
  if (largest.searchCpuUs !== undefined)
    goals.push({
      goal: `a tool search at ${largest.tools} tools in ≤ 5 ms`,
      value: `${f(largest.searchCpuUs)} µs CPU per search (round trip ${f(largest.searchMs, 2)} ms)`,
      met: largest.searchMs <= 5 && largest.searchCpuUs <= 5000,
    });
  return goals;
}
