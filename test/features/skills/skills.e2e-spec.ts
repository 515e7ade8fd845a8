import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Injectable } from '@nestjs/common';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import {
  McpModule,
  McpSkillProvider,
  McpSkillRegistry,
  type McpSkillCaller,
  type McpSkillDefinition,
  type McpSkillSource,
} from '@nest-mcp/core';
import { eventually } from '../../kit/eventually.js';
import { ensureBuilt, REPO_ROOT, WEATHER_MAIN } from '../../kit/build.js';
import { initApp, listenMcp, startWeatherApp, type RunningApp } from '../../kit/apps.js';

const BRIEFING_FOLDER = join(import.meta.dirname, '../../../apps/weather-server/skills/weather-briefing');
const BRIEFING_URI = 'skill://weather-briefing/SKILL.md';

/** The official SDK 2.4 client: `legacy` speaks 2025-11-25 (initialize, sessions), a pin speaks 2026-07-28. */
async function connect(url: string, era: 'legacy' | '2026-07-28', apiKey?: string): Promise<Client> {
  const client = new Client(
    { name: 'skills-e2e', version: '1.0.0' },
    { versionNegotiation: { mode: era === 'legacy' ? 'legacy' : { pin: era } } },
  );
  const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

describe.each(['legacy', '2026-07-28'] as const)(
  'the weather server serves its weather-briefing skill (SDK 2.4 skills client, %s)',
  (era) => {
    let weather: RunningApp;
    let client: Client;
    beforeAll(async () => {
      weather = await startWeatherApp();
      client = await connect(weather.url, era);
    });
    afterAll(async () => {
      await client?.close();
      await weather?.close();
    });

    it('lists it, gets it, and reads SKILL.md and its template, each verified against the entry', async () => {
      const skills = new SkillsClient(client);
      expect(skills.supported).toBe(true);
      expect(skills.directoryRead).toBe(true);

      const { skills: entries } = await skills.list();
      expect(entries.map((entry) => entry.uri)).toEqual([BRIEFING_URI]);
      const [entry] = entries;
      expect(entry.frontmatter).toMatchObject({ name: 'weather-briefing' });
      expect(entry.resources).toHaveLength(2);
      expect((await skills.get(BRIEFING_URI)).skill).toEqual(entry);

      const manifest = await skills.read(entry);
      expect(manifest.verified).toBe(true);
      expect(manifest.text).toBe(readFileSync(join(BRIEFING_FOLDER, 'SKILL.md'), 'utf8'));
      expect(manifest.body).toContain('`get_forecast`');
      const template = await skills.read(entry, 'templates/briefing.md');
      expect(template).toMatchObject({ verified: true, mimeType: 'text/markdown' });
      expect(template.text).toBe(readFileSync(join(BRIEFING_FOLDER, 'templates/briefing.md'), 'utf8'));

      const root = await skills.readDirectory('skill://weather-briefing');
      expect(root.resources.map((child) => [child.uri, child.mimeType])).toEqual([
        ['skill://weather-briefing/templates', 'inode/directory'],
        [BRIEFING_URI, 'text/markdown'],
      ]);
    });

    it('answers -32602 for a skill it does not serve, and lists SKILL.md among the resources', async () => {
      await expect(new SkillsClient(client).get('skill://nowhere/SKILL.md')).rejects.toMatchObject({ code: -32602 });
      const { resources } = await client.listResources();
      expect(resources).toContainEqual(expect.objectContaining({ uri: BRIEFING_URI, name: 'weather-briefing', mimeType: 'text/markdown' }));
    });
  },
);

describe('over stdio, the built weather server as a child process', () => {
  beforeAll(() => ensureBuilt(), 600_000);

  it.each(['legacy', 'auto'] as const)('serves weather-briefing to the SDK 2.4 skills client (%s)', async (mode) => {
    const client = new Client({ name: 'skills-stdio', version: '1.0.0' }, { versionNegotiation: { mode } });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [WEATHER_MAIN, '--stdio'], cwd: REPO_ROOT, stderr: 'ignore' }),
    );
    try {
      expect(client.getProtocolEra()).toBe(mode === 'legacy' ? 'legacy' : 'modern');
      const skills = new SkillsClient(client);
      const { skills: entries } = await skills.list();
      expect(entries.map((entry) => entry.uri)).toEqual([BRIEFING_URI]);
      const template = await skills.read(entries[0], 'templates/briefing.md');
      expect(template.text).toBe(readFileSync(join(BRIEFING_FOLDER, 'templates/briefing.md'), 'utf8'));
    } finally {
      await client.close();
    }
  });
});

/** A skill per tenant, as a database would hold them: the same definition object while it does not change. */
@McpSkillProvider()
@Injectable()
class TenantSkills implements McpSkillSource {
  private readonly byTenant = new Map<string, McpSkillDefinition[]>([
    [
      'acme',
      [
        {
          files: {
            'SKILL.md': '---\nname: acme-onboarding\ndescription: How Acme onboards a customer.\n---\n\nRead steps.md.\n',
            'steps.md': '1. Create the account.\n',
          },
        },
      ],
    ],
  ]);

  skills(caller: McpSkillCaller): McpSkillDefinition[] {
    return this.byTenant.get(caller.tenant) ?? [];
  }
}

describe('skills of a provider, per tenant', () => {
  let app: RunningApp;
  const ACME = 'key-acme-0123456789abcdef';
  const GLOBEX = 'key-globex-0123456789abcdef';
  beforeAll(async () => {
    app = await listenMcp(
      {
        name: 'tenant-skills',
        version: '1.0.0',
        auth: {
          apiKeys: [
            { key: ACME, tenant: 'acme' },
            { key: GLOBEX, tenant: 'globex' },
          ],
        },
        lists: { listChanged: { resources: true } },
      },
      [TenantSkills],
    );
  });
  afterAll(() => app?.close());

  it.each(['legacy', '2026-07-28'] as const)('shows a tenant its own skill and hides it from another tenant (%s)', async (era) => {
    const acme = await connect(app.url, era, ACME);
    const globex = await connect(app.url, era, GLOBEX);
    try {
      const acmeSkills = new SkillsClient(acme);
      const { skills } = await acmeSkills.list();
      expect(skills.map((skill) => skill.uri)).toEqual(['skill://acme-onboarding/SKILL.md']);
      expect((await acmeSkills.read(skills[0], 'steps.md')).text).toBe('1. Create the account.\n');

      const globexSkills = new SkillsClient(globex);
      expect((await globexSkills.list()).skills).toEqual([]);
      await expect(globexSkills.get('skill://acme-onboarding/SKILL.md')).rejects.toMatchObject({ code: -32602 });
      await expect(globex.readResource({ uri: 'skill://acme-onboarding/steps.md' })).rejects.toThrow();
      await expect(globexSkills.readDirectory('skill://acme-onboarding')).rejects.toMatchObject({ code: -32602 });
    } finally {
      await acme.close();
      await globex.close();
    }
  });

  it('serves a skill registered at run time and tells the session the resource list changed', async () => {
    const client = await connect(app.url, 'legacy', GLOBEX);
    let changes = 0;
    client.setNotificationHandler('notifications/resources/list_changed', () => void changes++);
    expect(client.getServerCapabilities()).toMatchObject({ resources: { listChanged: true } });
    // The SDK opens its GET stream after initialize: wait for it before changing the skills.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const handle = app.app.get(McpSkillRegistry).register({
      files: { 'SKILL.md': '---\nname: runtime-skill\ndescription: Registered at run time.\n---\n' },
    });
    try {
      await eventually(() => changes >= 1, 5_000, 'resources list_changed');
      const { skills } = await new SkillsClient(client).list();
      expect(skills.map((skill) => skill.uri)).toEqual(['skill://runtime-skill/SKILL.md']);
      expect(handle.remove()).toBe(true);
      expect((await new SkillsClient(client).list()).skills).toEqual([]);
    } finally {
      handle.remove();
      await client.close();
    }
  });
});

describe('a skills folder that breaks the rules fails the boot with a code', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'mcp-skills-e2e-'));
    mkdirSync(join(root, 'skills', 'trip'), { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const boot = () => initApp([McpModule.forRoot({ name: 'bad-skills', version: '1.0.0', sources: { skills: [join(root, 'skills')] } })]);

  it('a symlink out of the skill: MCP_ERR_SKILL_PATH', async () => {
    writeFileSync(join(root, 'skills', 'trip', 'SKILL.md'), '---\nname: trip\ndescription: d\n---\n');
    writeFileSync(join(root, 'secret'), 'secret');
    symlinkSync(join(root, 'secret'), join(root, 'skills', 'trip', 'secret.txt'));
    await expect(boot()).rejects.toMatchObject({ code: 'MCP_ERR_SKILL_PATH' });
  });

  it('an oversized file: MCP_ERR_SKILL_LIMIT', async () => {
    writeFileSync(join(root, 'skills', 'trip', 'SKILL.md'), '---\nname: trip\ndescription: d\n---\n');
    writeFileSync(join(root, 'skills', 'trip', 'data.bin'), Buffer.alloc(16 * 1024 * 1024 + 1));
    await expect(boot()).rejects.toMatchObject({ code: 'MCP_ERR_SKILL_LIMIT' });
  });

  it('a bad frontmatter: MCP_ERR_SKILL_FRONTMATTER', async () => {
    writeFileSync(join(root, 'skills', 'trip', 'SKILL.md'), '# no frontmatter\n');
    await expect(boot()).rejects.toMatchObject({ code: 'MCP_ERR_SKILL_FRONTMATTER' });
  });
});
