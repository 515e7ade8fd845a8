#!/usr/bin/env node
// The built documentation site (`npm run docs:build` → docs/.vitepress/dist) as a reader gets it: served on a free
// 127.0.0.1 port, opened in headless Chromium (Debian's `chromium`, `CHROMIUM_PATH` overrides, driven by
// playwright-core). Fails on a console error or an uncaught page error on any page, on a request to another host, on
// an internal link (or #anchor) that leads nowhere, and when the search box finds nothing.
// Every VitePress page is opened in the browser; the TypeDoc pages under /api/ are opened as far as the index and one
// class, and every link of every page (API included) is checked against the files of the build.
// Usage: node .ci/docs-browse.mjs   (after npm run docs:build)
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = fileURLToPath(new URL('../docs/.vitepress/dist/', import.meta.url));
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
};

/** The file a URL path names in the build: `/` and folders mean their index.html; undefined when there is none. */
function fileOf(pathname) {
  const path = normalize(join(ROOT, decodeURIComponent(pathname)));
  if (!path.startsWith(ROOT)) return undefined;
  if (existsSync(path) && statSync(path).isDirectory()) return existsSync(join(path, 'index.html')) ? join(path, 'index.html') : undefined;
  if (existsSync(path)) return path;
  // VitePress's clean links (/guide/tools) name /guide/tools.html.
  return existsSync(`${path}.html`) ? `${path}.html` : undefined;
}

/** The ids and names an HTML file declares, for #anchors. */
const anchorsOf = new Map();
function anchors(file) {
  if (!anchorsOf.has(file)) {
    const html = readFileSync(file, 'utf8');
    anchorsOf.set(file, new Set([...html.matchAll(/\s(?:id|name)="([^"]+)"/g)].map((m) => m[1])));
  }
  return anchorsOf.get(file);
}

function fail(message) {
  console.error(`::: docs-browse FAILED: ${message}`);
  process.exitCode = 1;
}

async function main() {
  const started = Date.now();
  if (!existsSync(join(ROOT, 'index.html'))) throw new Error(`no built site at ${ROOT}: run npm run docs:build first`);
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium, or set CHROMIUM_PATH)`);

  const server = createServer((request, response) => {
    const file = fileOf(new URL(request.url, 'http://localhost').pathname);
    if (!file) return response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    response.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
  });
  const problems = [];
  try {
    const context = await browser.newContext();
    // Nothing may leave 127.0.0.1: a request to another host is recorded and refused.
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(`${origin}/`) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
      problems.push(`request to another host: ${url}`);
      return route.abort();
    });
    const page = await context.newPage();
    let current = '';
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error on ${current}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error on ${current}: ${error.message}`));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`HTTP ${response.status()} for ${response.url()} on ${current}`);
    });

    // 1. Every page of the site and every link on it. VitePress pages open in the browser (its links are rendered
    //    by its router: read them from the live page); TypeDoc's pages are read as files, two of them opened.
    const seen = new Set();
    const queue = ['/index.html'];
    const opened = [];
    let links = 0;
    while (queue.length > 0) {
      const path = queue.shift();
      if (seen.has(path)) continue;
      seen.add(path);
      const file = fileOf(path);
      const isApi = path.startsWith('/api/');
      let hrefs;
      if (!isApi || path === '/api/index.html' || path === '/api/classes/McpModule.html') {
        current = path;
        await page.goto(origin + path, { waitUntil: 'load' });
        await page.waitForLoadState('networkidle');
        opened.push(path);
        hrefs = await page.$$eval('a[href]', (as) => as.map((a) => a.getAttribute('href')));
      } else {
        hrefs = [...readFileSync(file, 'utf8').matchAll(/<a[^>]*\shref="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
      }
      for (const href of hrefs) {
        if (!href || /^(mailto:|javascript:)/.test(href)) continue;
        const url = new URL(href, origin + path);
        if (url.origin !== origin) continue;
        links++;
        const target = fileOf(url.pathname);
        if (!target) {
          problems.push(`broken link on ${path}: ${href}`);
          continue;
        }
        const hash = decodeURIComponent(url.hash.slice(1));
        // TypeDoc's hierarchy page draws its entries with a script (assets/hierarchy.js): no ids in the file.
        const drawn = target.endsWith('/api/hierarchy.html');
        if (hash && !drawn && target.endsWith('.html') && !anchors(target).has(hash)) problems.push(`broken anchor on ${path}: ${href}`);
        const next = target.slice(ROOT.length - 1);
        if (next.endsWith('.html') && !seen.has(next)) queue.push(next);
      }
    }
    for (const required of ['/index.html', '/guide/getting-started.html', '/api/index.html']) {
      if (!opened.includes(required)) problems.push(`${required} was never reached from the home page`);
    }

    // 2. The search box (VitePress local search): find the body time bound and open the first result.
    current = 'search';
    await page.goto(`${origin}/index.html`, { waitUntil: 'load' });
    await page
      .getByRole('button', { name: /search/i })
      .first()
      .click();
    const input = page.locator('.VPLocalSearchBox input');
    await input.fill('bodyTimeoutMs');
    const results = page.locator('.VPLocalSearchBox .result');
    await results
      .first()
      .waitFor({ timeout: 10_000 })
      .catch(() => problems.push('the search for bodyTimeoutMs found nothing'));
    if ((await results.count()) > 0) {
      await results.first().click();
      // The router swaps the page in place: wait until the result's page shows the term.
      /* global location, document -- runs in the page */
      const shown = () => !location.pathname.endsWith('/index.html') && document.body.innerText.includes('bodyTimeoutMs');
      await page
        .waitForFunction(shown, null, { timeout: 10_000 })
        .catch(() => problems.push(`the first search result (${page.url()}) does not show bodyTimeoutMs`));
    }
    console.log(
      `::: docs-browse: ${seen.size} pages, ${links} internal links, ${opened.length} pages opened in Chromium, search (${Date.now() - started} ms)`,
    );
  } finally {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  }
  for (const problem of [...new Set(problems)]) fail(problem);
}

main().catch((error) => {
  console.error(`::: docs-browse FAILED: ${error.message}`);
  process.exitCode = 1;
});
