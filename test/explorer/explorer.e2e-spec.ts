/**
 * The explorer page in a real browser (headless Chromium through playwright-core) against the real weather server:
 * the page lists the tools through the endpoint, renders forms from their inputSchema, calls them and shows the
 * envelopes; a job is polled until it ends; as an MCP Apps host it renders the weather card of get_weather in a
 * sandboxed iframe. `UPDATE_SCREENSHOTS=1` rewrites `docs/explorer.png`.
 */
import { statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page, Request } from 'playwright-core';
import { Injectable } from '@nestjs/common';
import { ArrayMaxSize, IsArray, IsBoolean, IsNumber, IsObject, IsOptional, IsString, Max, Min } from 'class-validator';
import { McpArgs, McpModule, McpProperty, McpTool, MCP_UI_EXTENSION, MCP_UI_MIME_TYPE, type McpExplorerOptions } from '@nest-mcp/core';
import { todayUtc } from '../../apps/weather-server/src/weather/weather.model.js';
import { expectedReport } from '../support/weather-expectations.js';
import { type RunningApp, httpAdapterName, listenMcp, startWeatherApp } from '../kit/apps.js';
import { launchChromium, type HeadlessBrowser } from '../kit/browser.js';
import { send } from '../kit/http.js';

const SCREENSHOT = join(dirname(fileURLToPath(import.meta.url)), '../../docs/explorer.png');
const API_KEY = 'explorer-e2e-key-0123456789';
const WEATHER_TOOLS = [
  'cancel_job',
  'create_weather_alert',
  'delete_weather_alert',
  'generate_climate_report',
  'get_forecast',
  'get_job_status',
  'get_weather',
  'list_weather_alerts',
];

/** Everything the page did that a strict page must not: script errors, CSP refusals, requests to other origins. */
interface PageWatch {
  problems: string[];
  requests: Request[];
}

async function openExplorer(browser: HeadlessBrowser, app: RunningApp): Promise<{ page: Page; watch: PageWatch }> {
  const page = await browser.newPage();
  const watch: PageWatch = { problems: [], requests: [] };
  page.on('pageerror', (error) => watch.problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/status of 401/.test(message.text())) watch.problems.push(`console: ${message.text()}`);
  });
  page.on('request', (request) => {
    watch.requests.push(request);
    if (!request.url().startsWith(app.base)) watch.problems.push(`request to another origin: ${request.url()}`);
  });
  await page.goto(`${app.base}/mcp/explorer`);
  return { page, watch };
}

/** Fills the form of `tool` (opened from the catalogue) and submits it. */
async function callTool(page: Page, tool: string, args: Record<string, string>): Promise<void> {
  await page.click(`nav button[data-kind="tool"][data-name="${tool}"]`);
  const form = page.locator(`form[data-tool="${tool}"]`);
  for (const [name, value] of Object.entries(args)) await form.locator(`[name="${name}"]`).fill(value);
  await form.locator('button[type="submit"]').click();
}

const envelopeOf = (page: Page, tool: string) => page.locator(`section[data-tool="${tool}"] .envelope`);

describe('explorer page (headless Chromium)', () => {
  let browser: HeadlessBrowser | undefined;
  let weather: RunningApp | undefined;
  const savedDelay = process.env.REPORT_DELAY_MS;

  beforeAll(async () => {
    browser = await launchChromium('explorer page');
    if (!browser) return;
    process.env.REPORT_DELAY_MS = '1500';
    weather = await startWeatherApp();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await weather?.close();
    if (savedDelay === undefined) delete process.env.REPORT_DELAY_MS;
    else process.env.REPORT_DELAY_MS = savedDelay;
  });

  it('is one self-contained document under a strict Content-Security-Policy', async () => {
    if (!browser || !weather) return;
    const answer = await send(`${weather.base}/mcp/explorer`, { method: 'GET' });
    expect(answer.status).toBe(200);
    expect(answer.contentType).toMatch(/^text\/html/);
    const policy = answer.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
    expect(policy).toContain("connect-src 'self'");
    expect(policy).not.toContain('unsafe-inline');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    // No asset of another origin, and no asset of this one either: markup, style and script are inline.
    expect(answer.text).not.toMatch(/\s(src|href)="(?!data:)/);
  });

  it('lists the weather tools through the endpoint, with a 2025-11-25 session', async () => {
    if (!browser || !weather) return;
    const { page, watch } = await openExplorer(browser, weather);
    await page.waitForSelector('body[data-ready="true"]');
    const names = await page
      .locator('nav button[data-kind="tool"]')
      .evaluateAll((buttons) => buttons.map((button) => button.getAttribute('data-name')));
    expect([...names].sort()).toEqual(WEATHER_TOOLS);
    await expect(page.locator('#connection').textContent()).resolves.toMatch(/Connected to Weather 1\.0\.0 · 2025-11-25 · session/);
    expect(await page.locator('#prompt-list').textContent()).toContain('No prompts');

    const posts = watch.requests.filter((request) => request.method() === 'POST');
    expect(posts[0].postDataJSON()).toMatchObject({
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: { extensions: { [MCP_UI_EXTENSION]: { mimeTypes: [MCP_UI_MIME_TYPE] } } } },
    });
    expect(posts[1].postDataJSON()).toMatchObject({ method: 'notifications/initialized' });
    const list = posts.find((request) => request.postDataJSON()?.method === 'tools/list');
    expect(list?.headers()['mcp-session-id']).toMatch(/.{16,}/);
    expect(list?.headers()['mcp-protocol-version']).toBe('2025-11-25');
    expect(watch.problems).toEqual([]);
    await page.close();
  });

  it('lists the weather-briefing skill (its SKILL.md and its template) with the resources, and reads the template', async () => {
    if (!browser || !weather) return;
    const { page, watch } = await openExplorer(browser, weather);
    await page.waitForSelector('body[data-ready="true"]');
    const skill = page.locator('nav button[data-kind="resource"][data-name="skill://weather-briefing/SKILL.md"]');
    expect(await skill.textContent()).toContain('weather-briefing');
    const template = page.locator('nav button[data-kind="resource"][data-name="skill://weather-briefing/templates/briefing.md"]');
    expect(await template.textContent()).toContain('weather-briefing/templates/briefing.md');
    await template.click();
    await page.locator('form[data-resource="skill://weather-briefing/templates/briefing.md"] button[type="submit"]').click();
    // The result section is there, empty, before the answer: wait for the text, not the element.
    await page.locator('section.resource .result', { hasText: 'Weather for {{city}}' }).waitFor({ timeout: 10_000 });
    expect(watch.requests.some((request) => request.postDataJSON()?.method === 'skills/list')).toBe(true);
    expect(watch.problems).toEqual([]);
    await page.close();
  });

  it('renders a form from inputSchema: required marks, bounds, enum as a select, defaults pre-filled', async () => {
    if (!browser || !weather) return;
    const { page } = await openExplorer(browser, weather);
    await page.waitForSelector('body[data-ready="true"]');
    await page.click('nav button[data-kind="tool"][data-name="get_forecast"]');
    const form = page.locator('form[data-tool="get_forecast"]');
    await expect(form.locator('[data-field="city"] .req').count()).resolves.toBe(1);
    await expect(form.locator('[data-field="days"] .req').count()).resolves.toBe(0);
    const city = form.locator('input[name="city"]');
    expect(await city.getAttribute('minlength')).toBe('1');
    expect(await city.getAttribute('maxlength')).toBe('100');
    const days = form.locator('input[name="days"]');
    expect([
      await days.getAttribute('type'),
      await days.getAttribute('min'),
      await days.getAttribute('max'),
      await days.getAttribute('step'),
    ]).toEqual(['number', '1', '14', '1']);
    expect(await days.inputValue()).toBe('3');
    const unit = form.locator('select[name="unit"]');
    expect(await unit.locator('option').allTextContents()).toEqual(['(not set)', 'celsius', 'fahrenheit']);
    expect(await unit.locator('option:checked').textContent()).toBe('celsius');
    await page.close();
  });

  it('calls get_weather and shows the success envelope with the city', async () => {
    if (!browser || !weather) return;
    const { page, watch } = await openExplorer(browser, weather);
    await page.waitForSelector('body[data-ready="true"]');
    await callTool(page, 'get_weather', { city: 'Beijing' });
    const envelope = envelopeOf(page, 'get_weather');
    await envelope.and(page.locator('[data-status="success"]')).waitFor();
    expect(await envelope.locator('pre.data').textContent()).toContain('"name": "Beijing"');
    const call = watch.requests.find((request) => request.postDataJSON()?.method === 'tools/call');
    expect(call?.postDataJSON().params).toEqual({ name: 'get_weather', arguments: { city: 'Beijing', unit: 'celsius' } });
    expect(watch.problems).toEqual([]);
    await page.close();
  });

  it('renders the weather card of get_weather (MCP Apps host): sandbox proxy, ui/initialize, tool input and result', async () => {
    if (!browser || !weather) return;
    const { page, watch } = await openExplorer(browser, weather);
    await page.waitForSelector('body[data-ready="true"]');
    await callTool(page, 'get_weather', { city: 'Beijing' });
    const app = page.locator('section[data-tool="get_weather"] .app[data-app="ui://weather/card"]');
    await app.and(page.locator('[data-delivered="true"]')).waitFor();
    const frame = app.locator('iframe');
    expect(await frame.getAttribute('sandbox')).toBe('allow-scripts');
    expect(await frame.getAttribute('src')).toBe(`${weather.base}/mcp/explorer/app-frame`);
    // The card's own script ran (the page's strict policy does not reach the proxy) and drew the real result.
    const card = page.frameLocator('section[data-tool="get_weather"] iframe.app-frame');
    await card.locator('.city').waitFor();
    const report = expectedReport('Beijing', todayUtc()) as { temperature: number };
    expect(await card.locator('.city').textContent()).toBe('Beijing');
    expect(await card.locator('.temp').textContent()).toBe(`${Math.round(report.temperature * 10) / 10}°C`);
    // size-changed resized the frame to the card.
    await frame.and(page.locator(':not([height="160"])')).waitFor();
    const log = (await app.evaluate((node) => (node as unknown as { mcpLog: unknown[] }).mcpLog)) as Array<{
      direction: string;
      message: any;
    }>;
    const fromApp = log.filter((entry) => entry.direction === 'app→host').map((entry) => entry.message.method);
    expect(fromApp.slice(0, 3)).toEqual(['ui/notifications/sandbox-proxy-ready', 'ui/initialize', 'ui/notifications/initialized']);
    expect(fromApp).toContain('ui/notifications/size-changed');
    const toApp = log.filter((entry) => entry.direction === 'host→app').map((entry) => entry.message);
    expect(toApp[0].result).toMatchObject({ protocolVersion: '2026-01-26', hostInfo: { name: 'nest-mcp-explorer' } });
    expect(toApp[1]).toEqual({
      jsonrpc: '2.0',
      method: 'ui/notifications/tool-input',
      params: { arguments: { city: 'Beijing', unit: 'celsius' } },
    });
    expect(toApp[2]).toMatchObject({ method: 'ui/notifications/tool-result', params: { structuredContent: { status: 'success' } } });
    const read = watch.requests.find((request) => request.postDataJSON()?.method === 'resources/read');
    expect(read?.postDataJSON().params).toEqual({ uri: 'ui://weather/card' });
    if (process.env.UPDATE_SCREENSHOTS === '1') {
      await mkdir(dirname(SCREENSHOT), { recursive: true });
      await page.screenshot({ path: SCREENSHOT });
      expect(statSync(SCREENSHOT).size).toBeLessThan(300 * 1024);
    }
    expect(watch.problems).toEqual([]);
    await page.close();
  });

  it('serves the sandbox proxy under its own policy, built from the checked ?csp= origins', async () => {
    if (!browser || !weather) return;
    const bare = await send(`${weather.base}/mcp/explorer/app-frame`, { method: 'GET' });
    expect(bare.status).toBe(200);
    const policy = bare.headers.get('content-security-policy') ?? '';
    expect(policy).toContain('sandbox allow-scripts');
    expect(policy).toContain("script-src 'unsafe-inline'");
    expect(policy).toContain("connect-src 'none'");
    expect(policy).toContain("frame-ancestors 'self'");
    expect(bare.text).toContain('ui/notifications/sandbox-proxy-ready');
    const csp = encodeURIComponent(
      JSON.stringify({ connectDomains: ['https://api.example.com'], resourceDomains: ['https://*.cdn.example'] }),
    );
    const widened = (await send(`${weather.base}/mcp/explorer/app-frame?csp=${csp}`, { method: 'GET' })).headers.get(
      'content-security-policy',
    );
    expect(widened).toContain('connect-src https://api.example.com;');
    expect(widened).toContain("script-src 'unsafe-inline' https://*.cdn.example;");
    const injected = encodeURIComponent(JSON.stringify({ connectDomains: ["https://a.example; script-src 'unsafe-eval'"] }));
    const refused = await send(`${weather.base}/mcp/explorer/app-frame?csp=${injected}`, { method: 'GET' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('csp.connectDomains must be a list of origins');
    // The page itself may frame only its own origin (the proxy).
    const page = await send(`${weather.base}/mcp/explorer`, { method: 'GET' });
    expect(page.headers.get('content-security-policy')).toContain("frame-src 'self'");
  });

  it('sends out-of-bounds input to the server and marks the fields of its VALIDATION_ERROR', async () => {
    if (!browser || !weather) return;
    const { page, watch } = await openExplorer(browser, weather);
    await page.waitForSelector('body[data-ready="true"]');
    await callTool(page, 'get_forecast', { city: 'Beijing', days: '99' });
    const envelope = envelopeOf(page, 'get_forecast');
    await envelope.and(page.locator('[data-status="error"]')).waitFor();
    expect(await envelope.locator('.head .code').textContent()).toBe('VALIDATION_ERROR');
    expect(await envelope.locator('.fields').textContent()).toBe('Fields: days');
    const days = page.locator('form[data-tool="get_forecast"] [data-field="days"]');
    expect(await days.getAttribute('class')).toContain('invalid');
    expect(await days.locator('input').getAttribute('aria-invalid')).toBe('true');
    expect(await days.locator('.note').textContent()).toContain('days must not be greater than 14');
    expect(await page.locator('form[data-tool="get_forecast"] [data-field="city"]').getAttribute('class')).not.toContain('invalid');
    expect(watch.problems).toEqual([]);
    await page.close();
  });

  it('shows a job pending with its progress, polls get_job_status and ends with the result', async () => {
    if (!browser || !weather) return;
    const { page, watch } = await openExplorer(browser, weather);
    await page.waitForSelector('body[data-ready="true"]');
    await callTool(page, 'generate_climate_report', { city: 'Tokyo', years: '3' });
    const envelope = envelopeOf(page, 'generate_climate_report');
    await envelope.and(page.locator('[data-status="pending"]')).waitFor();
    await page.locator('section[data-tool="generate_climate_report"] .progress-text', { hasText: '/ 3' }).waitFor();
    await envelope.and(page.locator('[data-status="success"]')).waitFor({ timeout: 15_000 });
    expect(Number(await envelope.getAttribute('data-polls'))).toBeGreaterThanOrEqual(2);
    expect(await envelope.locator('pre.data').textContent()).toContain('"name": "Tokyo"');
    expect(await envelope.locator('ol.polls').textContent()).toMatch(/pending · \d \/ 3 · Year \d+ done/);
    const polls = watch.requests.filter((request) => request.postDataJSON()?.params?.name === 'get_job_status');
    expect(polls.length).toBe(Number(await envelope.getAttribute('data-polls')));
    expect(watch.problems).toEqual([]);
    await page.close();
  });
});

describe('explorer page: credentials typed into the page', () => {
  let browser: HeadlessBrowser | undefined;
  let weather: RunningApp | undefined;

  beforeAll(async () => {
    browser = await launchChromium('explorer page credentials');
    if (!browser) return;
    weather = await startWeatherApp({ env: { MCP_API_KEYS: `${API_KEY}|acme` } });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await weather?.close();
  });

  it('says that credentials are needed, then sends an API key as X-API-Key or as a Bearer token', async () => {
    if (!browser || !weather) return;
    const { page, watch } = await openExplorer(browser, weather);
    await page.waitForSelector('body[data-ready="failed"]');
    expect(await page.locator('#connection').textContent()).toMatch(/HTTP 401.*needs credentials/);

    await page.selectOption('#auth-kind', 'apikey');
    await page.fill('#auth-value', API_KEY);
    await page.click('#auth button[type="submit"]');
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.locator('nav button[data-kind="tool"]').count()).toBe(WEATHER_TOOLS.length);
    const keyed = watch.requests.filter((request) => request.headers()['x-api-key'] === API_KEY);
    expect(keyed.map((request) => request.postDataJSON()?.method)).toEqual(expect.arrayContaining(['initialize', 'tools/list']));

    await page.selectOption('#auth-kind', 'bearer');
    await page.click('#auth button[type="submit"]');
    await page.waitForSelector('body[data-ready="true"]');
    await callTool(page, 'get_weather', { city: '上海' });
    await envelopeOf(page, 'get_weather').and(page.locator('[data-status="success"]')).waitFor();
    const call = watch.requests.find((request) => request.postDataJSON()?.method === 'tools/call');
    expect(call?.headers()).toMatchObject({ authorization: `Bearer ${API_KEY}` });
    expect(call?.headers()['x-api-key']).toBeUndefined();
    await page.close();
  });
});

/** Arguments of every shape the weather tools lack: arrays and objects (JSON), booleans, unbounded steps. */
class EchoDto {
  @McpProperty({ description: 'Up to three tags' })
  @IsArray()
  @IsString({ each: true })
  @ArrayMaxSize(3)
  tags: string[];

  @McpProperty({ description: 'Free-form settings' })
  @IsOptional()
  @IsObject()
  settings?: Record<string, unknown>;

  @IsBoolean()
  loud: boolean;

  @IsOptional()
  @IsBoolean()
  quiet?: boolean;

  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(1)
  ratio?: number;
}

@Injectable()
class EchoTools {
  @McpTool({ description: 'Answers with its arguments' })
  echo(@McpArgs() args: EchoDto) {
    return { ...args };
  }
}

describe('explorer page: JSON, boolean and number fields', () => {
  let browser: HeadlessBrowser | undefined;
  let app: RunningApp | undefined;

  beforeAll(async () => {
    browser = await launchChromium('explorer page fields');
    if (!browser) return;
    app = await listenMcp({ name: 'echo', version: '2.0.0', explorer: { enabled: true } }, [EchoTools]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('edits arrays and objects as JSON checked before sending, booleans as a checkbox (a select when optional), numbers with step any', async () => {
    if (!browser || !app) return;
    const { page, watch } = await openExplorer(browser, app);
    await page.waitForSelector('body[data-ready="true"]');
    await page.click('nav button[data-kind="tool"][data-name="echo"]');
    const form = page.locator('form[data-tool="echo"]');
    expect(await form.locator('textarea[name="tags"]').count()).toBe(1);
    expect(await form.locator('textarea[name="settings"]').count()).toBe(1);
    expect(await form.locator('input[name="loud"]').getAttribute('type')).toBe('checkbox');
    // One that may be left out: true, false or nothing.
    expect(await form.locator('select[name="quiet"] option').allTextContents()).toEqual(['(not set)', 'true', 'false']);
    expect(await form.locator('input[name="ratio"]').getAttribute('step')).toBe('any');
    const calls = () => watch.requests.filter((request) => request.postDataJSON()?.method === 'tools/call').length;

    await form.locator('[name="tags"]').fill('["a", ');
    await form.locator('button[type="submit"]').click();
    await form.locator('[data-field="tags"] .note', { hasText: 'tags is not valid JSON' }).waitFor();
    await form.locator('[name="tags"]').fill('{"a": 1}');
    await form.locator('button[type="submit"]').click();
    await form.locator('[data-field="tags"] .note', { hasText: 'tags must be a JSON array' }).waitFor();
    expect(calls()).toBe(0);

    await form.locator('[name="tags"]').fill('["a", "b"]');
    await form.locator('[name="settings"]').fill('{"depth": 2}');
    await form.locator('[name="loud"]').check();
    await form.locator('[name="quiet"]').selectOption({ label: 'false' });
    await form.locator('[name="ratio"]').fill('0.25');
    await form.locator('button[type="submit"]').click();
    const envelope = envelopeOf(page, 'echo');
    await envelope.and(page.locator('[data-status="success"]')).waitFor();
    expect(JSON.parse((await envelope.locator('pre.data').textContent()) ?? '')).toEqual({
      tags: ['a', 'b'],
      settings: { depth: 2 },
      loud: true,
      quiet: false,
      ratio: 0.25,
    });
    expect(await form.locator('.field.invalid').count()).toBe(0);
    expect(watch.problems).toEqual([]);
    await page.close();
  });
});

describe('explorer page behind a global prefix', () => {
  it('reaches the endpoint relative to itself (/api/mcp/explorer → /api/mcp)', async () => {
    const browser = await launchChromium('explorer page behind a global prefix');
    if (!browser) return;
    const app = await listenMcp({ name: 'prefixed', version: '1.0.0', explorer: { enabled: true } }, [EchoTools], { globalPrefix: 'api' });
    try {
      const page = await browser.newPage();
      const posts: string[] = [];
      page.on('request', (request) => request.method() === 'POST' && posts.push(request.url()));
      // Express also routes the URL with a trailing slash (which the page must strip); Fastify routes are strict.
      await page.goto(`${app.base}/api/mcp/explorer${httpAdapterName() === 'express' ? '/' : ''}`);
      await page.waitForSelector('body[data-ready="true"]');
      expect(await page.locator('nav button[data-kind="tool"]').count()).toBe(1);
      expect(new Set(posts)).toEqual(new Set([`${app.base}/api/mcp`]));
    } finally {
      await browser.close();
      await app.close();
    }
  });
});

describe('explorer option', () => {
  it('is off unless enabled', async () => {
    const app = await listenMcp({ name: 'plain', version: '1.0.0' });
    try {
      expect((await send(`${app.base}/mcp/explorer`, { method: 'GET' })).status).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('serves the page at its own path when one is given', async () => {
    const app = await listenMcp({ name: 'moved', version: '1.0.0', explorer: { enabled: true, path: 'tools/ui/' } });
    try {
      const page = await send(`${app.base}/tools/ui`, { method: 'GET' });
      expect(page.status).toBe(200);
      // The endpoint is addressed relative to the page, so a global prefix in front of both would be kept.
      expect(page.text).toContain('"endpoint":"../mcp"');
    } finally {
      await app.close();
    }
  });

  it.each([
    [{ path: '/mcp' }, 'must not collide with the MCP route /mcp'],
    [{ path: '/sse' }, 'must not collide with the MCP route /sse'],
    [{ path: '/mcp/jobs/ui' }, 'must not collide with the MCP route /mcp/jobs'],
    [{ path: '/.well-known/explorer' }, 'must not collide with the MCP route /.well-known'],
    [{ path: '/' }, '"explorer.path" must be a non-root URL path'],
    [{ path: '/a b' }, '"explorer.path" must be a non-root URL path'],
    [{ enabled: 'yes' }, '"explorer.enabled" must be a boolean'],
  ])('refuses %j at boot', (explorer, message) => {
    expect(() =>
      McpModule.forRoot({ name: 'bad', version: '1.0.0', explorer: { enabled: true, ...explorer } as McpExplorerOptions }),
    ).toThrow(message);
  });

  it('names a misspelt explorer key', async () => {
    const typo = { enabled: true, pth: '/x' } as McpExplorerOptions;
    await expect(listenMcp({ name: 'typo', version: '1.0.0', explorer: typo })).rejects.toThrow(
      /"explorer\.pth" is unknown.*did you mean "explorer\.path"\?/s,
    );
  });
});
