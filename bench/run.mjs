#!/usr/bin/env node
// `npm run bench [-- --json] [-- --rounds N --warmup S --duration S --connections 16,64 --profile]`
// Installs the comparison dependencies into bench/ (and bench/rekog/), builds the library if libs/mcp/dist is
// missing, compiles the bench servers, then measures every stack on 127.0.0.1, each in its own child process.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH, forkTracked, jsonRpcOf, killAll, openStream, pool, request, sleep, startServer } from './lib/servers.mjs';
import { renderProfile, summarize } from './lib/profile.mjs';
import { catalogGoals, catalogScaling, catalogSection, catalogTable } from './lib/catalog.mjs';

const ROOT = path.resolve(BENCH, '..');
const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const option = (name, fallback) => {
  const index = argv.indexOf(`--${name}`);
  return index >= 0 && argv[index + 1] !== undefined ? argv[index + 1] : fallback;
};

const JSON_OUTPUT = flag('json');
const ROUNDS = Number(option('rounds', 3));
/** Warm-up of each cell in the first round; later rounds find the server's code already optimised. */
const WARMUP_S = Number(option('warmup', 2));
const REWARMUP_S = Number(option('rewarmup', 1));
const DURATION_S = Number(option('duration', 4));
const CONNECTIONS = option('connections', '16,64').split(',').map(Number);
const ALL_STACKS = [
  'ours-stateless',
  'ours-session',
  'ours-dto8',
  'ours-zod8',
  'bare-nest',
  'ours-route',
  'bare-nest-rest',
  'ours-gateway',
  'sdk',
  'rekog',
  'ours-fastify',
  'ours-dto8-fastify',
  'bare-nest-fastify',
  'rekog-fastify',
  'ours-2026',
  'ours-2026-fastify',
  'sdk-v2',
  'sdk-v2-2026',
  'bare-http',
];
const STACKS = option('stacks', ALL_STACKS.join(',')).split(',');
const PARTS = option('parts', 'load,memory,boot,catalog').split(',');
const CATALOG_SIZES = option('catalog-sizes', '10,100,1000,10000').split(',').map(Number);
const CATALOG_RUNS = Number(option('catalog-runs', 1));
const PROFILE = flag('profile');
const PROFILE_STACKS = option('profile-stacks', 'ours-stateless,ours-fastify,ours-dto8-fastify').split(',');
const PROFILE_S = Number(option('profile-duration', 10));
const MEMORY_COUNT = Number(option('memory-count', 1000));
const MEMORY_BATCHES = Number(option('memory-batches', 3));

const log = (message) => process.stderr.write(`[bench] ${message}\n`);

const MODES = {
  'ours-stateless': 'stateless POST, no session',
  'ours-session': 'with Mcp-Session-Id',
  'ours-dto8': 'stateless, 8-field DTO',
  'ours-zod8': 'stateless, the 8 fields as a Zod schema',
  'bare-nest': 'bare controller, hand-built result',
  'ours-route': 'a guarded REST route with a DTO body, as an MCP tool',
  'bare-nest-rest': 'the same route over REST',
  'ours-gateway': 'stateless POST to a gateway, its upstream ours-stateless (own process) over HTTP',
  sdk: 'stateless JSON, server per request',
  rekog: 'stateless JSON, server per request',
  'ours-fastify': 'stateless POST, no session, on Fastify',
  'ours-dto8-fastify': 'stateless, 8-field DTO, on Fastify',
  'bare-nest-fastify': 'bare controller, hand-built result, on Fastify',
  'rekog-fastify': 'stateless JSON, server per request, on Fastify',
  'ours-2026': 'revision 2026-07-28 (stateless envelope)',
  'ours-2026-fastify': 'revision 2026-07-28, on Fastify',
  'sdk-v2': 'SDK v2 createMcpHandler, 2025-11-25 (stateless fallback)',
  'sdk-v2-2026': 'SDK v2 createMcpHandler, 2026-07-28',
  'bare-http': 'bare node:http JSON-RPC by hand: the ceiling',
};

/** Stacks whose client speaks revision 2026-07-28: a `_meta` envelope in every request and its headers. */
const REV_2026 = new Set(['ours-2026', 'ours-2026-fastify', 'sdk-v2-2026']);
const ENVELOPE_2026 = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'nest-mcp-bench', version: '1.0.0' },
};
const HEADERS_2026 = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' };

/** The bare Nest controller on the same HTTP adapter: the ceiling a stack's "× bare" ratio is read against. */
const baselineOf = (stack) => (stack === 'ours-route' ? 'bare-nest-rest' : stack.endsWith('-fastify') ? 'bare-nest-fastify' : 'bare-nest');

/** Stacks driven with a REST request instead of a tools/call: its path (the body is `{ text }`, the answer echoes it). */
const REST_PATHS = { 'bare-nest-rest': '/tickets/t-1/comments' };
/** The route stacks' own guard wants this token (sent to both, so the MCP caller's reaches the route's guard). */
const ROUTE_HEADERS = { authorization: 'Bearer bench-token' };
const isRouteStack = (stack) => stack === 'ours-route' || stack === 'bare-nest-rest';

/** Stacks that could not be measured (a server that does not start or answers errors), with the reason. */
const skipped = new Map();

// ---------------------------------------------------------------------------------------------------------------
// Setup: dependencies, library build, bench compile.

/** Runs a command with its output on our stderr (stdout stays for the table and the JSON line). */
function sh(command, args, cwd, env = process.env) {
  log(`$ ${[command, ...args].join(' ')}${cwd === ROOT ? '' : `   (in ${path.relative(ROOT, cwd)})`}`);
  const result = spawnSync(command, args, { cwd, env, stdio: ['ignore', 2, 2] });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`})`);
}

/** `npm ci` (or `npm install` without a lock file) in `dir` when one of its dependencies is missing. */
function ensureInstalled(dir) {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const missing = Object.keys(manifest.dependencies ?? {}).filter(
    (name) => !existsSync(path.join(dir, 'node_modules', name, 'package.json')),
  );
  if (missing.length === 0) return;
  log(`installing ${path.relative(ROOT, dir)} dependencies (missing: ${missing.join(', ')})`);
  // Under `npm run`, npm exports its own prefix settings; the nested install must target `dir` only.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !/^npm_config_(local_prefix|prefix|workspaces?|include_workspace_root|global)$/i.test(key),
    ),
  );
  const lock = existsSync(path.join(dir, 'package-lock.json'));
  sh('npm', [lock ? 'ci' : 'install', '--prefix', dir, '--no-audit', '--no-fund', '--loglevel=error'], dir, env);
}

function setup() {
  ensureInstalled(BENCH);
  // The rekog stacks' own Nest copy is installed only when one of them is measured.
  if (STACKS.some((stack) => stack.startsWith('rekog'))) ensureInstalled(path.join(BENCH, 'rekog'));
  const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
  if (!existsSync(path.join(ROOT, 'libs/mcp/dist/index.js'))) {
    log('libs/mcp/dist is missing: building the library');
    sh(process.execPath, [tsc, '-b', 'libs/mcp/tsconfig.lib.json'], ROOT);
  }
  rmSync(path.join(BENCH, 'dist'), { recursive: true, force: true });
  rmSync(path.join(BENCH, 'rekog/dist'), { recursive: true, force: true });
  sh(process.execPath, [tsc, '-p', 'bench/tsconfig.json'], ROOT);
  if (STACKS.some((stack) => stack.startsWith('rekog'))) sh(process.execPath, [tsc, '-p', 'bench/rekog/tsconfig.json'], ROOT);
}

// ---------------------------------------------------------------------------------------------------------------
// What each stack is sent, and the correctness check.

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const CLIENT_PROTOCOL_VERSION = '2025-11-25';

function echoArguments(stack, text) {
  if (stack === 'ours-route') return { id: 't-1', text };
  if (!stack.startsWith('ours-dto8') && stack !== 'ours-zod8') return { text };
  return {
    text,
    title: 'A title',
    count: 42,
    ratio: 0.5,
    priority: 'high',
    enabled: true,
    requestId: '3b241101-e2bb-4255-8caf-4136c566a962',
    tag: 'bench-tag',
  };
}

const toolsCall = (stack, text, id = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: {
    name: stack === 'ours-route' ? 'add_comment' : stack === 'ours-gateway' ? 'up_echo' : 'echo',
    arguments: echoArguments(stack, text),
    ...(REV_2026.has(stack) && { _meta: ENVELOPE_2026 }),
  },
});

const initializeBody = (id = 0) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: CLIENT_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'nest-mcp-bench', version: '1.0.0' } },
});

/** `initialize` + `notifications/initialized`: the session's id and the negotiated version. */
async function openSession(port, agent) {
  const response = await request(port, { headers: HEADERS, body: initializeBody(), agent });
  const sessionId = response.headers['mcp-session-id'];
  const message = jsonRpcOf(response);
  if (response.status !== 200 || !sessionId || !message?.result?.protocolVersion)
    throw new Error(`initialize failed: ${response.status} ${response.text.slice(0, 300)}`);
  const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': message.result.protocolVersion };
  const initialized = await request(port, {
    headers: { ...HEADERS, ...headers },
    body: { jsonrpc: '2.0', method: 'notifications/initialized' },
    agent,
  });
  if (initialized.status !== 202) throw new Error(`notifications/initialized answered ${initialized.status}`);
  return { sessionId, headers };
}

/** Why a tools/call response is not a successful echo of `text`, or undefined when it is. */
function echoProblem(response, text) {
  if (response.status !== 200) return `HTTP ${response.status}: ${response.text.slice(0, 300)}`;
  let message;
  try {
    message = jsonRpcOf(response);
  } catch {
    return `unparsable body: ${response.text.slice(0, 300)}`;
  }
  if (!message || message.error) return `JSON-RPC error: ${JSON.stringify(message?.error ?? message).slice(0, 300)}`;
  const result = message.result;
  if (!result || result.isError) return `tool error: ${JSON.stringify(result).slice(0, 300)}`;
  const texts = (result.content ?? []).filter((block) => block.type === 'text').map((block) => block.text);
  if (!texts.some((t) => typeof t === 'string' && t.includes(text)))
    return `echo text missing from ${JSON.stringify(result).slice(0, 300)}`;
  return undefined;
}

/**
 * Prepares a stack for load: its extra headers (a session for ours-session) and a validation pass of 50 calls with
 * distinct texts plus the exact body the load will send, so a server answering errors is never measured as fast.
 */
async function prepare(server) {
  if (REST_PATHS[server.stack]) return prepareRest(server, REST_PATHS[server.stack]);
  const extra =
    server.stack === 'ours-session'
      ? (await openSession(server.port)).headers
      : isRouteStack(server.stack)
        ? ROUTE_HEADERS
        : REV_2026.has(server.stack)
          ? HEADERS_2026
          : {};
  const headers = { ...HEADERS, ...extra };
  const loadText = 'hello, bench';
  const loadBody = JSON.stringify(toolsCall(server.stack, loadText));
  const checks = [{ body: loadBody, text: loadText }];
  for (let i = 0; i < 50; i++) {
    const text = `check-${server.stack}-${i}-${Math.random().toString(36).slice(2)}`;
    checks.push({ body: JSON.stringify(toolsCall(server.stack, text, i + 2)), text });
  }
  for (const check of checks) {
    const problem = echoProblem(await request(server.port, { headers, body: check.body }), check.text);
    if (problem) throw new Error(`${server.stack} failed validation: ${problem}`);
  }
  return { headers, body: loadBody };
}

/** {@link prepare} of a REST stack: the same 51 checks, each answer's JSON `text` the text sent. */
async function prepareRest(server, urlPath) {
  const headers = { 'content-type': 'application/json', ...ROUTE_HEADERS };
  const loadText = 'hello, bench';
  const texts = [loadText, ...Array.from({ length: 50 }, (_, i) => `check-${server.stack}-${i}-${Math.random().toString(36).slice(2)}`)];
  for (const text of texts) {
    const response = await request(server.port, { path: urlPath, headers, body: JSON.stringify({ text }) });
    let echoed;
    try {
      echoed = JSON.parse(response.text).text;
    } catch {
      echoed = undefined;
    }
    if (response.status !== 201 || echoed !== text)
      throw new Error(`${server.stack} failed validation: HTTP ${response.status}: ${response.text.slice(0, 300)}`);
  }
  return { headers, body: JSON.stringify({ text: loadText }), url: `http://${new URL(server.url).host}${urlPath}` };
}

// ---------------------------------------------------------------------------------------------------------------
// Load.

let autocannon;

async function load(server, target, connections, seconds) {
  // The gateway's upstream (the direct server, in its own process) is read over the same calls.
  const relayed = server.stack === 'ours-gateway';
  const upstreamBefore = relayed ? await server.upstreamCpu() : 0;
  const cpuBefore = await server.cpu();
  const result = await autocannon({
    url: target.url ?? server.url,
    method: 'POST',
    headers: target.headers,
    body: target.body,
    connections,
    duration: seconds,
    pipelining: 1,
  });
  const cpuUs = (await server.cpu()) - cpuBefore;
  const upstreamUs = relayed ? (await server.upstreamCpu()) - upstreamBefore : 0;
  return {
    cpuPerRequest: result.requests.total > 0 ? cpuUs / result.requests.total : undefined,
    upstreamCpuPerRequest: relayed && result.requests.total > 0 ? upstreamUs / result.requests.total : undefined,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    failures: (result.non2xx ?? 0) + (result.errors ?? 0) + (result.timeouts ?? 0),
  };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function throughput() {
  const servers = [];
  const targets = new Map();
  for (const stack of STACKS) {
    log(`starting ${stack}`);
    let server;
    try {
      server = await startServer(stack);
      targets.set(stack, await prepare(server));
    } catch (error) {
      // One broken stack must not cost the others' numbers: it is reported as not measured.
      const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
      log(`${stack}: NOT MEASURED (${reason})`);
      skipped.set(stack, reason);
      await server?.stop();
      continue;
    }
    servers.push(server);
    log(`${stack}: pid ${server.pid}, port ${server.port}, validated`);
  }
  const measured = STACKS.filter((stack) => targets.has(stack));
  const samples = new Map();
  const rss = new Map();
  for (let round = 0; round < ROUNDS; round++) {
    // Rotating the order spreads any drift of the machine over the stacks.
    const order = measured.map((_, i) => measured[(i + round) % measured.length]);
    for (const stack of order) {
      const server = servers.find((s) => s.stack === stack);
      for (const connections of CONNECTIONS) {
        await load(server, targets.get(stack), connections, round === 0 ? WARMUP_S : REWARMUP_S);
        const sample = await load(server, targets.get(stack), connections, DURATION_S);
        const key = `${stack}@${connections}`;
        samples.set(key, [...(samples.get(key) ?? []), sample]);
        log(
          `round ${round + 1}/${ROUNDS} ${stack.padEnd(14)} c=${String(connections).padEnd(3)} ${sample.rps.toFixed(0).padStart(6)} req/s  p50 ${sample.p50} ms  p99 ${sample.p99} ms  ${sample.cpuPerRequest?.toFixed(0)} µs CPU/req${sample.upstreamCpuPerRequest === undefined ? '' : ` (upstream ${sample.upstreamCpuPerRequest.toFixed(0)})`}${sample.failures ? `  ${sample.failures} FAILED` : ''}`,
        );
      }
      if (round === ROUNDS - 1) {
        // Read right after the stack's own last cell, so every server is read equally soon after its load.
        const raw = await server.memory(false);
        const collected = await server.memory(true);
        rss.set(stack, { raw: raw.rss, collected: collected.rss });
      }
    }
  }
  for (const server of servers) await server.stop();

  const rows = [];
  for (const stack of measured) {
    for (const connections of CONNECTIONS) {
      const list = samples.get(`${stack}@${connections}`);
      rows.push({
        stack,
        mode: MODES[stack],
        connections,
        rps: Math.round(median(list.map((s) => s.rps))),
        p50_ms: median(list.map((s) => s.p50)),
        p99_ms: median(list.map((s) => s.p99)),
        rss_mib: Math.round((rss.get(stack).raw / 1048576) * 10) / 10,
        rss_gc_mib: Math.round((rss.get(stack).collected / 1048576) * 10) / 10,
        cpu_us: median(list.map((s) => s.cpuPerRequest)),
        upstream_cpu_us: stack === 'ours-gateway' ? median(list.map((s) => s.upstreamCpuPerRequest)) : undefined,
        failures: list.reduce((sum, s) => sum + s.failures, 0),
        samples: list.map((s) => Math.round(s.rps)),
      });
    }
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------------------------
// Memory: idle sessions and open SSE streams, each on a fresh server of ours (caps raised, defaults otherwise).

const kib = (bytes) => bytes / 1024;

/**
 * Opens `MEMORY_BATCHES` batches of `MEMORY_COUNT` items with `open(i)` (i counts across batches), reading the
 * server's memory (after gc) before and after each batch. Returns the items, the readings, and per-item slopes
 * in KiB: overall (last reading − first) and per batch.
 */
async function measureBatches(server, open, concurrency) {
  const items = [];
  const readings = [await server.memory(true)];
  for (let batch = 0; batch < MEMORY_BATCHES; batch++) {
    const offset = items.length;
    items.push(...(await pool(MEMORY_COUNT, concurrency, (i) => open(offset + i))));
    await sleep(200);
    readings.push(await server.memory(true));
  }
  const n = MEMORY_COUNT * MEMORY_BATCHES;
  const first = readings[0];
  const last = readings[readings.length - 1];
  return {
    items,
    kib: kib(last.rss - first.rss) / n,
    heapKib: kib(last.heapUsed - first.heapUsed) / n,
    batchKib: readings.slice(1).map((r, i) => kib(r.rss - readings[i].rss) / MEMORY_COUNT),
    last,
  };
}

async function sessionMemory() {
  const server = await startServer('ours-stateless', { largeLimits: true });
  const http = await import('node:http');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const streams = [];
  try {
    // Warm-up: the whole workload once (sessions, then a GET stream on each), torn down again, so that one-time
    // growth (JIT, heap spaces, Map backing stores, socket pools) is not charged to the measured sessions.
    const warm = await pool(MEMORY_COUNT, 16, () => openSession(server.port, agent));
    const warmStreams = await pool(MEMORY_COUNT, 50, (i) => openStream(server.port, '/mcp', warm[i].headers));
    for (const stream of warmStreams) stream.close();
    await pool(warm.length, 16, async (i) => {
      const response = await request(server.port, { method: 'DELETE', headers: warm[i].headers, agent });
      if (response.status !== 200) throw new Error(`DELETE session answered ${response.status}`);
    });
    await sleep(500);
    const sessions = await measureBatches(server, () => openSession(server.port, agent), 16);
    // Then a GET stream on each of those sessions: the stream alone, on top of its session.
    const gets = await measureBatches(server, (i) => openStream(server.port, '/mcp', sessions.items[i].headers), 50);
    streams.push(...gets.items);
    return {
      sessionKib: sessions.kib,
      sessionHeapKib: sessions.heapKib,
      sessionBatchKib: sessions.batchKib,
      getStreamKib: gets.kib,
      getStreamHeapKib: gets.heapKib,
      getStreamBatchKib: gets.batchKib,
    };
  } finally {
    for (const stream of streams) stream.close();
    agent.destroy();
    await server.stop();
  }
}

async function legacySseMemory() {
  const server = await startServer('ours-stateless', { largeLimits: true });
  let streams = [];
  try {
    const ready = (text) => text.includes('event: endpoint') && text.includes('\n\n');
    const warm = await pool(MEMORY_COUNT, 50, () => openStream(server.port, '/sse', {}, ready));
    for (const stream of warm) stream.close();
    await sleep(500);
    const sse = await measureBatches(server, () => openStream(server.port, '/sse', {}, ready), 50);
    streams = sse.items;
    return { sseKib: sse.kib, sseHeapKib: sse.heapKib, sseBatchKib: sse.batchKib };
  } finally {
    for (const stream of streams) stream.close();
    await server.stop();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Boot time: `app.init()` with 500 generated tools versus 0, each in a fresh process, medians of 3.

async function bootOnce(tools) {
  const child = forkTracked(path.join(BENCH, 'dist/boot.js'), ['--tools', String(tools)]);
  return new Promise((resolve, reject) => {
    let result;
    child.on('message', (message) => {
      if (message?.type === 'boot') result = message;
    });
    child.on('exit', (code) =>
      result ? resolve(result) : reject(new Error(`boot --tools ${tools} exited with ${code}\n${child.outputTail()}`)),
    );
  });
}

async function bootTime() {
  const runs = { 0: [], 500: [] };
  for (let i = 0; i < 3; i++) for (const tools of [0, 500]) runs[tools].push(await bootOnce(tools));
  const med = (tools, field) => median(runs[tools].map((r) => r[field]));
  return {
    initMs0: med(0, 'initMs'),
    initMs500: med(500, 'initMs'),
    createMs0: med(0, 'createMs'),
    createMs500: med(500, 'createMs'),
    defineMs500: med(500, 'defineMs'),
    addedInitMs: med(500, 'initMs') - med(0, 'initMs'),
    addedCreateMs: med(500, 'createMs') - med(0, 'createMs'),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Report.

function versions() {
  const read = (dir, name) => {
    try {
      return JSON.parse(readFileSync(path.join(dir, 'node_modules', name, 'package.json'), 'utf8')).version;
    } catch {
      return 'n/a';
    }
  };
  const rekog = path.join(BENCH, 'rekog');
  return {
    '@nest-mcp/core': JSON.parse(readFileSync(path.join(ROOT, 'libs/mcp/package.json'), 'utf8')).version,
    '@nestjs/core': read(ROOT, '@nestjs/core'),
    '@nestjs/platform-express': read(ROOT, '@nestjs/platform-express'),
    express: read(ROOT, 'express'),
    'class-validator': read(ROOT, 'class-validator'),
    'class-transformer': read(ROOT, 'class-transformer'),
    '@modelcontextprotocol/sdk': read(ROOT, '@modelcontextprotocol/sdk'),
    '@rekog/mcp-nest': read(rekog, '@rekog/mcp-nest'),
    '@modelcontextprotocol/server (rekog)': read(rekog, '@modelcontextprotocol/server'),
    '@nestjs/core (rekog)': read(rekog, '@nestjs/core'),
    '@nestjs/microservices (rekog)': read(rekog, '@nestjs/microservices'),
    zod: read(BENCH, 'zod'),
    autocannon: read(BENCH, 'autocannon'),
  };
}

function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model?.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    loadavg: os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(', '),
    node: process.version,
  };
}

/** The newest file of libs/mcp/dist: when the measured build of the library was made. */
function libraryBuiltAt() {
  let newest = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.js')) newest = Math.max(newest, statSync(full).mtimeMs);
    }
  };
  try {
    walk(path.join(ROOT, 'libs/mcp/dist'));
  } catch {
    return 'unknown';
  }
  return new Date(newest).toISOString();
}

function commit() {
  const result = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : 'unknown';
}

/** Latency in ms: whole numbers as such, medians of two rounds with their .5. */
const ms = (n) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
const fmt = (n, digits = 0) => (n === undefined || Number.isNaN(n) ? 'n/a' : n.toFixed(digits));

function ratio(rows, row) {
  const bare = rows.find((r) => r.stack === baselineOf(row.stack) && r.connections === row.connections);
  return bare ? row.rps / bare.rps : undefined;
}

function table(rows) {
  const lines = [
    '| stack | mode | conns | req/s | p50 ms | p99 ms | RSS MiB | × bare (same adapter) | × bare-http | server CPU µs/req |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const row of rows) {
    const r = ratio(rows, row);
    // The bare node:http server is the ceiling of any stack on Node.
    const ceiling = rows.find((other) => other.stack === 'bare-http' && other.connections === row.connections);
    const c = ceiling ? `${(row.rps / ceiling.rps).toFixed(2)}×` : 'n/a';
    lines.push(
      `| ${row.stack} | ${row.mode} | ${row.connections} | ${row.rps}${row.failures ? ' ⚠' : ''} | ${ms(row.p50_ms)} | ${ms(row.p99_ms)} | ${fmt(row.rss_mib, 1)} | ${r === undefined ? 'n/a' : `${r.toFixed(2)}×`} | ${c} | ${fmt(row.cpu_us, 0)} |`,
    );
  }
  return lines.join('\n');
}

/** The same comparison by server CPU time per request (less sensitive to other load on the machine). */
function cpuView(baseline, ours) {
  return baseline.cpu_us && ours.cpu_us ? ` (by server CPU per request: ${(baseline.cpu_us / ours.cpu_us).toFixed(2)}×)` : '';
}

function goals(rows, memory, boot, catalog) {
  const at = (stack, c) => rows.find((r) => r.stack === stack && r.connections === c);
  const list = [];
  const has = (...stacks) => stacks.every((s) => rows.some((r) => r.stack === s));
  /** `ours` ≥ `factor` × `other` in req/s (the goals of issue 13 and before), with the CPU view beside it. */
  const atLeast = (ours, other, factor, c) => {
    if (!has(ours, other)) return;
    const a = at(ours, c);
    const b = at(other, c);
    list.push({
      goal: `${ours} ≥ ${factor}× ${other} req/s, c=${c}`,
      value: `${(a.rps / b.rps).toFixed(2)}×${cpuView(b, a)}`,
      met: a.rps >= factor * b.rps,
    });
  };
  /** What `dto8` costs over `one` (the same server with a one-field DTO). */
  const dtoCost = (dto8, one, limit, c) => {
    if (!has(dto8, one)) return;
    const a = at(dto8, c);
    const b = at(one, c);
    const cost = 1 - a.rps / b.rps;
    const cpuCost = a.cpu_us && b.cpu_us ? ` (server CPU per request: +${((a.cpu_us / b.cpu_us - 1) * 100).toFixed(1)} %)` : '';
    list.push({
      goal: `${dto8}: 8-field DTO costs ≤ ${limit} % vs 1 field (${one}), c=${c}`,
      value: `${(cost * 100).toFixed(1)} % fewer req/s${cpuCost}`,
      met: cost <= limit / 100,
    });
  };
  /**
   * The gateway process's CPU per relayed call against the direct server's per call (issue 38): read against
   * `ours-stateless` measured in the same run, with the upstream's own CPU over the relayed calls beside it.
   */
  const relayCost = (c) => {
    if (!has('ours-gateway', 'ours-stateless')) return;
    const gateway = at('ours-gateway', c);
    const direct = at('ours-stateless', c);
    if (!gateway.cpu_us || !direct.cpu_us) return;
    const cost = gateway.cpu_us / direct.cpu_us;
    const upstream = gateway.upstream_cpu_us
      ? `; its upstream used ${gateway.upstream_cpu_us.toFixed(0)} µs per relayed call (the gateway ${(gateway.cpu_us / gateway.upstream_cpu_us).toFixed(2)}× that)`
      : '';
    list.push({
      goal: `ours-gateway CPU per relayed call ≤ 2.0× ours-stateless CPU per direct call, c=${c}`,
      value: `${cost.toFixed(2)}× (${gateway.cpu_us.toFixed(0)} vs ${direct.cpu_us.toFixed(0)} µs${upstream}; req/s ${(gateway.rps / direct.rps).toFixed(2)}×)`,
      met: cost <= 2.0,
    });
  };
  for (const c of CONNECTIONS) {
    atLeast('ours-stateless', 'bare-nest', 1.0, c);
    if (has('ours-stateless', 'bare-nest')) {
      const ours = at('ours-stateless', c);
      const bare = at('bare-nest', c);
      list.push({
        goal: `ours-stateless p99 ≤ bare-nest p99, c=${c}`,
        value: `${ours.p99_ms} vs ${bare.p99_ms} ms`,
        met: ours.p99_ms <= bare.p99_ms,
      });
    }
    atLeast('ours-stateless', 'sdk', 2, c);
    atLeast('ours-stateless', 'rekog', 2, c);
    dtoCost('ours-dto8', 'ours-stateless', 15, c);
    if (has('ours-route', 'bare-nest-rest')) {
      // The route tool's cost over the same REST request: req/s of REST over req/s as a tool.
      const cost = at('bare-nest-rest', c).rps / at('ours-route', c).rps;
      list.push({
        goal: `ours-route costs ≤ 1.3× bare-nest-rest (same route over REST), c=${c}`,
        value: `${cost.toFixed(2)}×`,
        met: cost <= 1.3,
      });
    }
    // A call through the gateway against the same call to its upstream directly: one extra hop at most.
    atLeast('ours-gateway', 'ours-stateless', 0.5, c);
    relayCost(c);
    atLeast('ours-fastify', 'bare-nest-fastify', 0.75, c);
    atLeast('ours-2026', 'ours-stateless', 0.9, c);
    atLeast('ours-2026-fastify', 'ours-fastify', 0.9, c);
    atLeast('ours-stateless', 'sdk-v2', 3, c);
    atLeast('ours-2026', 'sdk-v2-2026', 3, c);
    atLeast('ours-fastify', 'sdk-v2', 3, c);
    atLeast('ours-2026-fastify', 'sdk-v2-2026', 3, c);
    atLeast('ours-fastify', 'rekog-fastify', 4, c);
    atLeast('ours-fastify', 'ours-stateless', 3, c);
    dtoCost('ours-dto8-fastify', 'ours-fastify', 10, c);
  }
  for (const [stack, reason] of skipped)
    list.push({ goal: `${stack} measured`, value: `not measured: ${reason.slice(0, 200)}`, met: false });
  if (memory) {
    list.push({ goal: '≤ 8 KiB per idle session', value: `${memory.sessionKib.toFixed(2)} KiB`, met: memory.sessionKib <= 8 });
    list.push({
      goal: '≤ 16 KiB per open SSE stream (legacy GET /sse)',
      value: `${memory.sseKib.toFixed(2)} KiB`,
      met: memory.sseKib <= 16,
    });
  }
  if (boot)
    list.push({ goal: '500 tools boot in < 300 ms added', value: `${boot.addedInitMs.toFixed(0)} ms`, met: boot.addedInitMs < 300 });
  list.push(...catalogGoals(catalog));
  return list;
}

function report({ rows, memory, boot, catalog, started, elapsedS, loadBefore }) {
  const m = machine();
  const v = versions();
  const goalList = goals(rows, memory, boot, catalog);
  const lines = [];
  lines.push('# Benchmark results', '');
  lines.push(
    `Generated by \`npm run bench\` on ${started.toISOString()} (commit ${commit()}; library build libs/mcp/dist of ${libraryBuiltAt()}), in ${elapsedS.toFixed(0)} s.`,
    '',
  );
  lines.push('## Machine', '');
  lines.push(
    `- CPU: ${m.cpu}, ${m.cores} cores`,
    `- Memory: ${m.memoryGiB} GiB`,
    `- OS: ${m.os}`,
    `- Node: ${m.node}`,
    `- Load average (1, 5, 15 min) at the start: ${loadBefore}; at the end: ${m.loadavg}. Anything else running on the machine skews the numbers: compare rows of one run, not runs.`,
    '',
  );
  lines.push('## Versions', '');
  for (const [name, version] of Object.entries(v)) lines.push(`- ${name}: ${version}`);
  lines.push('');
  if (rows.length) lines.push('## Throughput and latency', '');
  if (rows.length)
    lines.push(
      `Each stack runs in its own child process on 127.0.0.1 and is driven by autocannon (in the runner process) with the same JSON-RPC \`tools/call\` of an \`echo\` tool (\`ours-route\`: of its route tool \`add_comment\`; \`bare-nest-rest\`: the REST request itself). ${ROUNDS} interleaved round(s), the order of the stacks rotated each round; each cell is a warm-up (${WARMUP_S} s in the first round, ${REWARMUP_S} s later) then ${DURATION_S} s measured; the table shows medians over rounds (latencies: medians of each round's p50 and p99). RSS is the server process's right after its last cell. "Server CPU µs/req" is the CPU time (user + system, all threads) the server process used during a measured run divided by the requests it answered: it moves much less than req/s when other processes compete for the cores, so it is the steadier measure of cost on a shared machine (the client, autocannon, used about 35 µs of CPU per request: the servers are the bottleneck). "× bare (same adapter)" is req/s over that of the bare Nest controller on the same HTTP adapter (bare-nest for express stacks, bare-nest-fastify for \`…-fastify\` ones; for \`ours-route\`, the same route over REST, bare-nest-rest) at the same connection count.`,
      '',
    );
  if (rows.length) lines.push(table(rows), '');
  if (rows.some((r) => r.failures)) lines.push('⚠ = some responses were non-2xx or errors during the measured runs.', '');
  for (const [stack, reason] of skipped) lines.push(`Not measured: \`${stack}\` (${reason.slice(0, 300)}).`, '');
  if (rows.length) {
    const gcRss = STACKS.filter((stack) => rows.some((r) => r.stack === stack)).map(
      (stack) => `${stack} ${fmt(rows.find((r) => r.stack === stack).rss_gc_mib, 1)}`,
    );
    lines.push(`RSS MiB after a \`global.gc()\` (same moment): ${gcRss.join(', ')}.`, '');
  }
  if (rows.length)
    lines.push('Per-round req/s: ' + rows.map((r) => `${r.stack}@${r.connections} [${r.samples.join(', ')}]`).join('; '), '');
  if (memory) {
    const batches = (list) => list.map((v) => v.toFixed(2)).join(', ');
    lines.push('## Memory', '');
    lines.push(
      `On a fresh server of ours each time (default options, per-tenant caps raised to allow thousands): the workload is run once with ${MEMORY_COUNT} items and torn down (warm-up), then ${MEMORY_BATCHES} batches of ${MEMORY_COUNT} are opened and kept, with the server's RSS read after \`global.gc()\` and a pause (so V8 has handed freed pages back) before and after each batch. Reported: (RSS after − RSS before) / items, over all batches; the per-batch slopes show the noise (RSS moves in pages: about ±2 KiB per item on one batch of ${MEMORY_COUNT}). The JS-heap slope (heapUsed) is given beside it.`,
      '',
    );
    lines.push(
      `- Idle session (\`initialize\` + \`notifications/initialized\`): **${memory.sessionKib.toFixed(2)} KiB** RSS per session (per batch: ${batches(memory.sessionBatchKib)}); JS heap ${memory.sessionHeapKib.toFixed(2)} KiB`,
    );
    lines.push(
      `- Legacy SSE stream (\`GET /sse\`, held open after its \`endpoint\` event; includes the session it opens): **${memory.sseKib.toFixed(2)} KiB** RSS per stream (per batch: ${batches(memory.sseBatchKib)}); JS heap ${memory.sseHeapKib.toFixed(2)} KiB`,
    );
    lines.push(
      `- Session GET stream (\`GET /mcp\` with \`Mcp-Session-Id\`, on top of its existing session): ${memory.getStreamKib.toFixed(2)} KiB RSS per stream (per batch: ${batches(memory.getStreamBatchKib)}); JS heap ${memory.getStreamHeapKib.toFixed(2)} KiB`,
      '',
    );
  }
  if (boot) {
    lines.push('## Boot time with 500 tools', '');
    lines.push(
      `500 generated \`@McpTool()\` methods on one provider, each with its own 3-field DTO class, versus the same app with 0 tools; each in a fresh process, median of 3. \`app.init()\` (tool discovery, schema generation, handler binding, routes): ${fmt(boot.initMs0, 1)} ms → ${fmt(boot.initMs500, 1)} ms, **+${fmt(boot.addedInitMs, 1)} ms**. \`NestFactory.create()\`: ${fmt(boot.createMs0, 1)} → ${fmt(boot.createMs500, 1)} ms (+${fmt(boot.addedCreateMs, 1)} ms). Declaring the 500 classes and decorators (module load, outside both): ${fmt(boot.defineMs500, 1)} ms.`,
      '',
    );
  }
  if (catalog?.length) lines.push(...catalogSection(catalog));
  lines.push('## Goals', '', '| goal | value | met |', '| --- | --- | --- |');
  for (const g of goalList) lines.push(`| ${g.goal} | ${g.value} | ${g.met ? 'yes' : '**no**'} |`);
  lines.push('');
  lines.push('## Stacks', '');
  lines.push(
    '- `ours-stateless`: `@nest-mcp/core`, `NestFactory.create(AppModule, { bodyParser: false, logger: false })`, `McpModule.forRoot({ name, version })`, `echo(@McpArgs() args: EchoDto)` with `@IsString() text`; POST /mcp without a session (headers `Content-Type: application/json`, `Accept: application/json, text/event-stream`).',
  );
  lines.push(
    '- `ours-session`: the same app, in its own process; `initialize` first, then every call carries `Mcp-Session-Id` and `MCP-Protocol-Version` (one session shared by all connections).',
  );
  lines.push(
    '- `ours-dto8`: the same, with an 8-field DTO (strings with length limits, an int and a number with ranges, an `@IsIn` enum, a boolean, a UUID, an optional pattern-checked string), all sent on every call.',
  );
  lines.push(
    '- `ours-zod8`: `ours-dto8` with the same eight rules as a Zod 4 schema (`@McpTool({ input })`, validated by `~standard.validate`) instead of the DTO.',
  );
  lines.push(
    '- `bare-nest`: a Nest controller on platform-express with the default body parser, returning a hand-built `tools/call` result (no MCP library).',
  );
  lines.push(
    "- `ours-route`: a helpdesk-style REST controller (`POST /tickets/:id/comments`, its own bearer-token guard, a `@Body()` DTO under a global `ValidationPipe` from `APP_PIPE`) served as the tool `add_comment` through `McpModule.forRoot({ sources: { routes: [TicketsController] } })`, called with `tools/call` and the token: each call runs the route's guard, pipe and handler in process.",
    '- `bare-nest-rest`: the same controller as plain REST on platform-express (default body parser): `POST /tickets/t-1/comments` with `{ text }` and the token. "× bare" of `ours-route` is read against it.',
  );
  lines.push(
    "- `ours-gateway`: a second app with `McpModule.forRoot({ sources: { upstreams: [{ name: 'up', url }] } })` in front of the `ours-stateless` app (the upstream in a process of its own, over loopback HTTP; RSS and CPU are the gateway process's), called with `tools/call` of `up_echo`: the gateway's pipeline, its client (one upstream session for the anonymous tenant) and the upstream's own work. Goals: ≥ 0.5× the req/s of `ours-stateless`, the same call made directly, and ≤ 2.0× its server CPU per call (the gateway process's CPU per relayed call over the direct server's per call, both rows of this run; the upstream process's CPU over the same relayed calls is given beside it).",
  );
  lines.push(
    "- `sdk`: `@modelcontextprotocol/sdk` 1.x `McpServer` + `StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })` on `createMcpExpressApp()`, a new server and transport per request (the SDK's stateless example); zod `{ text: z.string() }`.",
  );
  lines.push(
    "- `rekog`: `@rekog/mcp-nest` 2.x `McpStrategy` + `StreamableHttpTransport({ statefulMode: false, enableJsonResponse: true })`, self-mounted on Nest's express adapter (default body parser), MCP logging off; zod `{ text: z.string() }`. It has its own copy of Nest in bench/rekog (same version), because Nest loads `@nestjs/microservices` from where `@nestjs/core` is installed.",
  );
  lines.push(
    '- `ours-fastify`, `ours-dto8-fastify`: `ours-stateless` and `ours-dto8` on `NestFactory.create(AppModule, new FastifyAdapter(), { bodyParser: false, logger: false })` (@nestjs/platform-fastify, Fastify 5).',
  );
  lines.push(
    "- `bare-nest-fastify`: the `bare-nest` controller on `new FastifyAdapter()` (Fastify's own JSON parser): the ceiling on Fastify.",
  );
  lines.push(
    "- `rekog-fastify`: the `rekog` server on `new FastifyAdapter()` (@rekog/mcp-nest's FastifyHttpAdapter); the adapter package resolves from the repo root.",
  );
  lines.push(
    '- `ours-2026`, `ours-2026-fastify`: `ours-stateless` and `ours-fastify` called on revision 2026-07-28: every request carries the `_meta` envelope (protocol version, client capabilities, client info) and the `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers.',
  );
  lines.push(
    '- `sdk-v2`, `sdk-v2-2026`: the official SDK v2 server (`@modelcontextprotocol/server` 2.4.0, `createMcpHandler`, a new `McpServer` per request, zod `z.object({ text })`) on a plain `node:http` server that hands it web-standard `Request`s; called on 2025-11-25 (its default stateless legacy fallback) and on 2026-07-28.',
  );
  lines.push(
    '- `bare-http`: a bare `node:http` server that parses the JSON-RPC request by hand and answers our envelope: the ceiling of any stack on Node.',
  );
  lines.push('');
  return { markdown: lines.join('\n'), goalList };
}

// ---------------------------------------------------------------------------------------------------------------
// Profile mode: `npm run bench -- --profile` runs our server under --cpu-prof at 64 connections and summarises.

/** Marks the end of the generated part of PROFILE.md: what follows (notes, before/after comparisons) is kept. */
const PROFILE_NOTES_MARKER = '<!-- notes below are kept by npm run bench -- --profile -->';

function keptProfileNotes() {
  const file = path.join(BENCH, 'PROFILE.md');
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const at = old.indexOf(PROFILE_NOTES_MARKER);
  return at >= 0 ? `\n${old.slice(at)}` : '';
}

async function profile() {
  const dir = path.join(BENCH, 'profiles');
  mkdirSync(dir, { recursive: true });
  const sections = [];
  for (const stack of PROFILE_STACKS) {
    const file = path.join(dir, `${stack}.cpuprofile`);
    rmSync(file, { force: true });
    const server = await startServer(stack, { execArgv: ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-name', `${stack}.cpuprofile`] });
    let target;
    try {
      target = await prepare(server);
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
      log(`${stack}: NOT PROFILED (${reason})`);
      sections.push(`### ${stack}\n\nNot profiled: ${reason.slice(0, 300)}\n`);
      await server.stop();
      continue;
    }
    await load(server, target, 64, 3);
    const from = await server.clock();
    const sample = await load(server, target, 64, PROFILE_S);
    const to = await server.clock();
    log(`profiled ${stack}: ${sample.rps.toFixed(0)} req/s, ${sample.cpuPerRequest.toFixed(0)} µs CPU/req under --cpu-prof`);
    await server.stop();
    for (let i = 0; i < 50 && !existsSync(file); i++) await sleep(100);
    // Only the measured window: not the boot, the validation pass or the warm-up.
    const summary = summarize(file, ROOT, { from, to, requests: sample.total });
    sections.push(
      renderProfile(
        `${stack} (64 connections, ${PROFILE_S} s: ${sample.rps.toFixed(0)} req/s and ${sample.cpuPerRequest.toFixed(0)} µs of process CPU per request under the profiler)`,
        summary,
      ),
    );
  }
  const markdown = [
    '# CPU profiles of our server under load',
    '',
    `\`node --cpu-prof\` of each server under autocannon at 64 connections (\`npm run bench -- --profile\`), analysed over the measured window only. Raw profiles in bench/profiles/ (open them in Chrome DevTools). Lines of our library are its .ts lines (through the source maps of libs/mcp/dist). Machine load average at the end: ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(', ')}.`,
    '',
    ...sections,
  ].join('\n');
  writeFileSync(path.join(BENCH, 'PROFILE.md'), `${markdown}\n${keptProfileNotes()}`);
  process.stdout.write(`${markdown}\n`);
}

// ---------------------------------------------------------------------------------------------------------------

async function main() {
  const started = new Date();
  const loadBefore = os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');
  setup();
  autocannon = (await import('autocannon')).default;
  if (PROFILE) return profile();

  const rows = PARTS.includes('load') ? await throughput() : [];
  let memory;
  if (PARTS.includes('memory')) {
    log('measuring memory per idle session and per SSE stream');
    memory = { ...(await sessionMemory()), ...(await legacySseMemory()) };
  }
  let boot;
  if (PARTS.includes('boot')) {
    log('measuring boot time with 500 tools');
    boot = await bootTime();
  }
  let catalog;
  if (PARTS.includes('catalog')) {
    log(`measuring catalogs of ${CATALOG_SIZES.join(', ')} tools`);
    catalog = await catalogScaling(CATALOG_SIZES, CATALOG_RUNS, { log });
  }
  const elapsedS = (Date.now() - started.getTime()) / 1000;

  const { markdown, goalList } = report({ rows, memory, boot, catalog, started, elapsedS, loadBefore });
  writeFileSync(path.join(BENCH, 'RESULTS.md'), `${markdown}\n`);
  if (rows.length) process.stdout.write(`${table(rows)}\n\n`);
  if (memory) {
    process.stdout.write(
      `memory: ${memory.sessionKib.toFixed(2)} KiB per idle session, ${memory.sseKib.toFixed(2)} KiB per legacy SSE stream, ${memory.getStreamKib.toFixed(2)} KiB per session GET stream (RSS; JS heap ${memory.sessionHeapKib.toFixed(2)}, ${memory.sseHeapKib.toFixed(2)}, ${memory.getStreamHeapKib.toFixed(2)} KiB)\n`,
    );
  }
  if (boot)
    process.stdout.write(
      `boot: app.init() +${boot.addedInitMs.toFixed(1)} ms with 500 tools (${boot.initMs0.toFixed(1)} → ${boot.initMs500.toFixed(1)} ms)\n`,
    );
  if (catalog) process.stdout.write(`${catalogTable(catalog)}\n`);
  process.stdout.write('\n');
  for (const g of goalList) process.stdout.write(`${g.met ? 'MET   ' : 'MISSED'} ${g.goal}: ${g.value}\n`);
  process.stdout.write(`\nbench/RESULTS.md written (${elapsedS.toFixed(0)} s)\n`);
  if (JSON_OUTPUT) {
    const json = {
      rows: rows.map(({ stack, mode, connections, rps, p50_ms, p99_ms, rss_mib, cpu_us, upstream_cpu_us }) => ({
        stack,
        mode,
        connections,
        rps,
        p50_ms,
        p99_ms,
        rss_mib,
        cpu_us,
        ...(upstream_cpu_us !== undefined && { upstream_cpu_us }),
      })),
      session_kib: memory ? Math.round(memory.sessionKib * 100) / 100 : null,
      sse_stream_kib: memory ? Math.round(memory.sseKib * 100) / 100 : null,
      boot_ms_500_tools: boot ? Math.round(boot.addedInitMs * 10) / 10 : null,
      catalog: catalog ?? null,
    };
    process.stdout.write(`${JSON.stringify(json)}\n`);
  }
}

main().then(
  () => {
    killAll();
    process.exit(0);
  },
  (error) => {
    process.stderr.write(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    killAll();
    process.exit(1);
  },
);
