// Summarises a V8 .cpuprofile: self and inclusive time per function, grouped by package.
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';

const OURS = '/libs/mcp/dist/';

const sourceMaps = new Map();

/** The `.ts` line of a position in our compiled library, through its source map (1-based), if it has one. */
function originalLine(file, line, column) {
  if (!sourceMaps.has(file)) {
    let map;
    try {
      if (existsSync(`${file}.map`)) map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
    } catch {
      map = undefined;
    }
    sourceMaps.set(file, map);
  }
  const entry = sourceMaps.get(file)?.findEntry(line, column);
  return entry && typeof entry.originalLine === 'number' ? entry.originalLine + 1 : undefined;
}

/** Where a function lives: our library (as its src/*.ts path), a package, node internals, or V8 pseudo-frames. */
export function locate(callFrame, root) {
  const url = callFrame.url ?? '';
  if (!url) return { category: callFrame.functionName ? `(${callFrame.functionName.replace(/[()]/g, '')})` : '(native)', file: '' };
  const file = url.replace(/^file:\/\//, '');
  if (file.includes(OURS)) {
    const rel = file.slice(file.indexOf(OURS) + OURS.length).replace(/\.js$/, '.ts');
    const line = callFrame.lineNumber >= 0 ? originalLine(file, callFrame.lineNumber, Math.max(0, callFrame.columnNumber)) : undefined;
    return { category: '@nest-mcp/core', file: `libs/mcp/src/${rel}`, ours: true, line };
  }
  if (url.startsWith('node:')) return { category: 'node internals', file: url };
  const nm = file.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const parts = file.slice(nm + 14).split('/');
    const pkg = parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
    return { category: pkg, file: `${pkg}/${parts.slice(pkg.includes('/') ? 2 : 1).join('/')}` };
  }
  return { category: 'app', file: root ? path.relative(root, file) : file };
}

/**
 * Self time per node comes from `samples` and `timeDeltas`; inclusive time adds a sample once to every distinct
 * function on its stack. Percentages are of the busy time (everything but `(idle)`).
 */
export function summarize(profilePath, root, { from, to, requests } = {}) {
  const profile = JSON.parse(readFileSync(profilePath, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const key = (node) => {
    const where = locate(node.callFrame, root);
    // Our library's lines are its .ts lines (source maps); other code keeps the line of the file that ran.
    const lineNumber = where.ours ? where.line : node.callFrame.lineNumber >= 0 ? node.callFrame.lineNumber + 1 : undefined;
    const line = lineNumber === undefined ? '' : `:${lineNumber}`;
    return {
      id: `${where.file}${line} ${node.callFrame.functionName || '(anonymous)'}`,
      where,
      name: node.callFrame.functionName || '(anonymous)',
      line,
    };
  };
  const keys = new Map(profile.nodes.map((node) => [node.id, key(node)]));

  const self = new Map();
  const inclusive = new Map();
  const categories = new Map();
  let total = 0;
  let idle = 0;
  const deltas = profile.timeDeltas ?? [];
  let timestamp = profile.startTime;
  profile.samples.forEach((nodeId, index) => {
    timestamp += deltas[index] ?? 0;
    // Only the window asked for (µs of the same monotonic clock), e.g. the measured load without boot and warm-up.
    if ((from !== undefined && timestamp < from) || (to !== undefined && timestamp > to)) return;
    const dt = Math.max(0, deltas[index + 1] ?? deltas[index] ?? 0) / 1000; // ms; the delta after a sample is its duration
    const node = nodes.get(nodeId);
    total += dt;
    if (node.callFrame.functionName === '(idle)') {
      idle += dt;
      return;
    }
    const k = keys.get(nodeId);
    self.set(k.id, { ...k, ms: (self.get(k.id)?.ms ?? 0) + dt });
    categories.set(k.where.category, (categories.get(k.where.category) ?? 0) + dt);
    const seen = new Set();
    for (let id = nodeId; id !== undefined; id = parent.get(id)) {
      const up = keys.get(id);
      if (seen.has(up.id)) continue;
      seen.add(up.id);
      inclusive.set(up.id, { ...up, ms: (inclusive.get(up.id)?.ms ?? 0) + dt });
    }
  });
  const busy = total - idle;
  const pct = (ms) => (busy > 0 ? (100 * ms) / busy : 0);
  const sorted = (map) => [...map.values()].sort((a, b) => b.ms - a.ms).map((entry) => ({ ...entry, pct: pct(entry.ms) }));
  const ours = sorted(self).filter((entry) => entry.where.ours);
  return {
    requests,
    totalMs: total,
    busyMs: busy,
    idleMs: idle,
    categories: [...categories.entries()].map(([category, ms]) => ({ category, ms, pct: pct(ms) })).sort((a, b) => b.ms - a.ms),
    topSelf: sorted(self),
    oursSelf: ours,
    oursSelfTotalPct: ours.reduce((sum, entry) => sum + entry.pct, 0),
    oursInclusive: sorted(inclusive).filter((entry) => entry.where.ours),
  };
}

/** Markdown report of one profile. */
export function renderProfile(title, summary, { top = 25 } = {}) {
  const f = (n) => n.toFixed(1);
  const lines = [];
  lines.push(`### ${title}`, '');
  const perRequest = (ms) => (summary.requests ? ((ms * 1000) / summary.requests).toFixed(1) : 'n/a');
  lines.push(
    `Sampled ${f(summary.totalMs / 1000)} s of the measured load; busy ${f(summary.busyMs / 1000)} s (${f((100 * summary.busyMs) / summary.totalMs)} %)${summary.requests ? `, ${summary.requests} requests: ${perRequest(summary.busyMs)} µs of busy main-thread time per request` : ''}. Percentages are of busy time; µs/req divides by the requests served in the window.`,
    '',
  );
  lines.push('Self time by package:', '', '| package | self ms | % | µs/req |', '| --- | ---: | ---: | ---: |');
  for (const c of summary.categories.slice(0, 15)) lines.push(`| ${c.category} | ${f(c.ms)} | ${f(c.pct)} | ${perRequest(c.ms)} |`);
  lines.push(
    '',
    `Top ${top} functions by self time (all code):`,
    '',
    '| function | where | self % | µs/req |',
    '| --- | --- | ---: | ---: |',
  );
  for (const e of summary.topSelf.slice(0, top)) lines.push(`| ${e.name} | ${e.where.file}${e.line} | ${f(e.pct)} | ${perRequest(e.ms)} |`);
  lines.push(
    '',
    `Our library (libs/mcp/src), by self time — ${f(summary.oursSelfTotalPct)} % of busy time in all:`,
    '',
    '| file:function | self % | µs/req |',
    '| --- | ---: | ---: |',
  );
  for (const e of summary.oursSelf.slice(0, top)) lines.push(`| ${e.where.file}${e.line}:${e.name} | ${f(e.pct)} | ${perRequest(e.ms)} |`);
  lines.push(
    '',
    'Our library, by inclusive time (the function and everything it calls):',
    '',
    '| file:function | inclusive % | µs/req |',
    '| --- | ---: | ---: |',
  );
  for (const e of summary.oursInclusive.slice(0, 20))
    lines.push(`| ${e.where.file}${e.line}:${e.name} | ${f(e.pct)} | ${perRequest(e.ms)} |`);
  lines.push('');
  return lines.join('\n');
}
