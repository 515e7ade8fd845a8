/**
 * Headless Chromium for the page tests: Debian's `chromium` driven by `playwright-core`, a fresh profile per launch,
 * nothing but loopback traffic. `launchChromium()` answers `undefined` (after a visible `SKIP:` line) when the
 * browser is not installed, so a spec can skip instead of failing on a machine without it.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Where Debian installs it (`apt-get install -y chromium`); `CHROMIUM_PATH` overrides. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Quiet, offline, sandbox-free (containers): no QUIC, no first-run UI, no background fetches to Google.
 * `--headless` is Playwright's own `headless: true`.
 */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A running browser with its own profile directory; `close()` ends the browser and deletes the profile. */
export interface HeadlessBrowser {
  readonly context: BrowserContext;
  newPage(): Promise<Page>;
  /** Closes every page and the browser, then removes the profile. Safe to call twice. */
  close(): Promise<void>;
}

/** Launches headless Chromium, or prints `SKIP: <why>` and answers `undefined` when it is not installed. */
export async function launchChromium(suite: string): Promise<HeadlessBrowser | undefined> {
  if (!existsSync(CHROMIUM_PATH)) {
    console.log(`SKIP: ${suite}: no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
    return undefined;
  }
  // Playwright takes the fresh --user-data-dir as the persistent context's directory (it refuses it in `args`).
  const profile = await mkdtemp(join(tmpdir(), 'nest-mcp-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 860 },
    });
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
  let closed = false;
  return {
    context,
    newPage: () => context.newPage(),
    async close() {
      if (closed) return;
      closed = true;
      try {
        await context.close();
      } finally {
        await rm(profile, { recursive: true, force: true });
      }
    },
  };
}
