/**
 * The weather card MCP App in headless Chromium: a test host page (its own loopback server) renders the card's
 * HTML, read from the weather server with a real `resources/read` over HTTP, in a sandboxed iframe and speaks
 * the host side of the MCP Apps protocol; the tool result it delivers is a real `get_weather` / `get_forecast`
 * result obtained with the official SDK client. The card must show the city and temperature (and the days), and
 * a readable message without data. `UPDATE_SCREENSHOTS=1` rewrites `docs/weather-card.png`.
 */
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MCP_UI_EXTENSION, MCP_UI_MIME_TYPE } from '@nest-mcp/core';
import { type RunningApp, startWeatherApp } from '../kit/apps.js';
import { launchChromium, type HeadlessBrowser } from '../kit/browser.js';
import { McpAppsTestHost } from './support/mcp-apps-host.js';

const SCREENSHOT = join(dirname(fileURLToPath(import.meta.url)), '../../docs/weather-card.png');

interface UiTool {
  resourceUri: string;
  html: string;
  uiMeta: Record<string, unknown>;
}

describe('weather card MCP App in a sandboxed iframe (headless Chromium)', () => {
  let browser: HeadlessBrowser | undefined;
  let weather: RunningApp;
  let host: McpAppsTestHost;
  let client: Client;
  const problems: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium('weather card MCP App');
    if (!browser) return;
    weather = await startWeatherApp();
    host = await McpAppsTestHost.start();
    client = new Client(
      { name: 'mcp-apps-host-e2e', version: '1.0.0' },
      { capabilities: { extensions: { [MCP_UI_EXTENSION]: { mimeTypes: [MCP_UI_MIME_TYPE] } } } as Record<string, unknown> },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(weather.url)));
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await browser?.close();
    await host?.close();
    await weather?.close();
  });

  /** What a host does before rendering: the tool's `_meta.ui.resourceUri`, then `resources/read` of it. */
  async function uiOf(toolName: string): Promise<UiTool> {
    const { tools } = await client.listTools();
    const resourceUri = (tools.find((tool) => tool.name === toolName)?._meta?.ui as { resourceUri: string }).resourceUri;
    const { contents } = await client.readResource({ uri: resourceUri });
    const [content] = contents as Array<{ mimeType: string; text: string; _meta?: { ui?: Record<string, unknown> } }>;
    expect(content.mimeType).toBe(MCP_UI_MIME_TYPE);
    return { resourceUri, html: content.text, uiMeta: content._meta?.ui ?? {} };
  }

  async function openHost(): Promise<Page> {
    const page = await browser!.newPage();
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('request', (request) => {
      if (!request.url().startsWith(host.url) && !request.url().startsWith('about:')) problems.push(`request: ${request.url()}`);
    });
    await page.goto(host.url);
    return page;
  }

  async function render(page: Page, ui: UiTool, toolInput: Record<string, unknown>, toolResult: unknown): Promise<void> {
    await page.evaluate((args) => (globalThis as any).mountApp(args), { html: ui.html, uiMeta: ui.uiMeta, toolInput, toolResult });
  }

  it('get_weather: the card shows the city and the temperature of the real result', async () => {
    if (!browser) return;
    const ui = await uiOf('get_weather');
    expect(ui.resourceUri).toBe('ui://weather/card');
    const result = await client.callTool({ name: 'get_weather', arguments: { city: 'Beijing' } });
    const data = (result.structuredContent as { data: { city: { name: string }; temperature: number } }).data;
    const page = await openHost();
    await render(page, ui, { city: 'Beijing' }, result);
    const card = page.frameLocator('#app');
    await card.locator('.city').waitFor();
    expect(await card.locator('.city').textContent()).toBe(data.city.name);
    expect(await card.locator('.temp').textContent()).toBe(`${Math.round(data.temperature * 10) / 10}°C`);
    // The protocol as the host saw it: initialize first, then initialized, and a size report.
    const log = (await page.evaluate(() => (globalThis as any).mcpHostLog)) as Array<{ direction: string; message: any }>;
    const fromApp = log.filter((entry) => entry.direction === 'app→host').map((entry) => entry.message);
    expect(fromApp[0]).toMatchObject({
      jsonrpc: '2.0',
      method: 'ui/initialize',
      params: { protocolVersion: '2026-01-26', appInfo: { name: 'weather-card' } },
    });
    expect(fromApp.map((message) => message.method)).toEqual(
      expect.arrayContaining(['ui/notifications/initialized', 'ui/notifications/size-changed']),
    );
    expect(problems).toEqual([]);
    await page.close();
  }, 30_000);

  it('get_forecast: the card shows the city, today’s temperature and one tile per day', async () => {
    if (!browser) return;
    const ui = await uiOf('get_forecast');
    const result = await client.callTool({ name: 'get_forecast', arguments: { city: 'Tokyo', days: 5 } });
    const data = (result.structuredContent as { data: { city: { name: string }; days: Array<{ temperature: number }> } }).data;
    const page = await openHost();
    await render(page, ui, { city: 'Tokyo', days: 5 }, result);
    const card = page.frameLocator('#app');
    await card.locator('#days').waitFor();
    expect(await card.locator('.city').textContent()).toBe(data.city.name);
    expect(await card.locator('.temp').textContent()).toBe(`${Math.round(data.days[0].temperature * 10) / 10}°C`);
    expect(await card.locator('.day').count()).toBe(5);
    expect(problems).toEqual([]);
    if (process.env.UPDATE_SCREENSHOTS === '1') {
      await page.waitForTimeout(200); // the size report resizes the iframe
      await mkdir(dirname(SCREENSHOT), { recursive: true });
      await page.locator('#slot').screenshot({ path: SCREENSHOT });
    }
    await page.close();
  }, 30_000);

  it('degrades to a readable message: an error result, and a result without data', async () => {
    if (!browser) return;
    const ui = await uiOf('get_weather');
    const failed = await client.callTool({ name: 'get_weather', arguments: { city: 'Atlantis' } });
    const page = await openHost();
    await render(page, ui, { city: 'Atlantis' }, failed);
    const card = page.frameLocator('#app');
    await card.locator('.message.error').waitFor();
    expect(await card.locator('.message').textContent()).toContain('Unknown city "Atlantis"');
    await page.close();

    const empty = await openHost();
    await render(empty, ui, {}, { content: [{ type: 'text', text: 'nothing to show' }] });
    await empty.frameLocator('#app').locator('.message').getByText('No weather data in this result.').waitFor();
    await empty.close();
    expect(problems).toEqual([]);
  }, 30_000);
});
