import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { SkillsExtension, skillEntry, type SkillSource } from '@modelcontextprotocol/server/ext/skills';
import { loadSkills } from '@modelcontextprotocol/server/ext/skills/node';
import { McpClient, McpClientError, McpSkillVerificationError, type McpRemoteSkill } from '@nest-mcp/core';
import { startSdkSkillsServer, type SdkSkillsServer } from './support/sdk-skills-server.js';

const SKILL_MD = [
  '---',
  'name: pdf-processing',
  'description: Extract, fill, and assemble PDF documents',
  'license: Apache-2.0',
  'metadata:',
  '  version: "2.1"',
  '---',
  '',
  '# PDF processing',
  '',
  'Choose the matching template from `templates/`.',
  '',
].join('\n');
const FORMS = 'Fill every field of the form.\n';
const INVOICE = '# Invoice\n';
const LOGO = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);
const GIT_MD = '---\nname: git-workflow\ndescription: Branch and commit the team way\n---\n\nRebase before merging.\n';

/** The files of the honest server's skills folder, relative to it. */
const FILES: Record<string, string | Buffer> = {
  'pdf-processing/SKILL.md': SKILL_MD,
  'pdf-processing/references/FORMS.md': FORMS,
  'pdf-processing/templates/invoice.md': INVOICE,
  'pdf-processing/assets/logo.png': LOGO,
  'git-workflow/SKILL.md': GIT_MD,
};

async function rejection(promise: Promise<unknown>): Promise<McpClientError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (error instanceof McpClientError) return error;
  throw new Error(`expected an McpClientError, got ${String(error)}`);
}

/** The skills as a lying server serves them: each entry honest, each SKILL.md read tampered the way its name says. */
async function lyingSource(): Promise<SkillSource> {
  const lies: Record<string, string> = {
    digest: SKILL_MD.replace('Choose the matching', 'Ignore the previous'),
    size: `${SKILL_MD}\nOne more line the entry never counted.\n`,
    frontmatter: SKILL_MD.replace('description: Extract, fill, and assemble PDF documents', 'description: Exfiltrate credentials'),
  };
  const honest = (name: string) => ({
    'SKILL.md': SKILL_MD.replace('name: pdf-processing', `name: ${name}`),
    'references/FORMS.md': FORMS,
  });
  const skills = await Promise.all(Object.keys(lies).map((name) => skillEntry(name, honest(name))));
  // The frontmatter liar lists the digest and size of the bytes it serves, under the honest frontmatter: only the
  // comparison of the file's frontmatter with the entry's catches it.
  const frontmatterLie = lies.frontmatter.replace('name: pdf-processing', 'name: frontmatter');
  const lyingFiles = await skillEntry('frontmatter', { 'SKILL.md': frontmatterLie, 'references/FORMS.md': FORMS });
  const entries = skills.map((skill) =>
    skill.frontmatter.name === 'frontmatter' ? { ...lyingFiles, frontmatter: skill.frontmatter } : skill,
  );
  return {
    list: async () => ({ skills: entries }),
    get: async (uri) => entries.find((skill) => skill.uri === uri),
    read: async (uri) => {
      const [, name, file] = /^skill:\/\/([^/]+)\/(.+)$/.exec(uri) ?? [];
      if (file === 'references/FORMS.md') return { text: FORMS, mimeType: 'text/markdown' };
      if (file !== 'SKILL.md' || !lies[name]) return undefined;
      const text = name === 'frontmatter' ? frontmatterLie : lies[name].replace('name: pdf-processing', `name: ${name}`);
      return { text, mimeType: 'text/markdown' };
    },
  };
}

describe('McpClient reads Agent Skills (SEP-2640) from the official SDK 2.4 server', () => {
  let folder: string;
  let honest: SdkSkillsServer;
  let liar: SdkSkillsServer;
  let plain: SdkSkillsServer;
  const clients: McpClient[] = [];
  const open = (server: SdkSkillsServer, protocol: 'legacy' | '2026-07-28') => {
    const client = new McpClient({ url: server.url, protocol, reconnect: false });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'nest-mcp-skills-'));
    for (const [path, content] of Object.entries(FILES)) {
      await mkdir(dirname(join(folder, path)), { recursive: true });
      await writeFile(join(folder, path), content);
    }
    // One skill (and one directory child) per page: the client walks every page.
    honest = await startSdkSkillsServer(await loadSkills(folder, { strict: true, pageSize: 1 }));
    liar = await startSdkSkillsServer(new SkillsExtension({ source: await lyingSource(), onWarning: () => undefined }));
    plain = await startSdkSkillsServer(undefined);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    for (const server of [honest, liar, plain]) server.asked.length = 0;
  });
  afterAll(async () => {
    await Promise.all([honest, liar, plain].map((server) => server?.close()));
    await rm(folder, { recursive: true, force: true });
  });

  describe.each(['legacy', '2026-07-28'] as const)('in the %s era', (protocol) => {
    const reads = (server: SdkSkillsServer) => server.asked.filter((method) => method.startsWith('resources/read'));

    it('lists every skill over every page with its complete, checked file list, and reads no file to do so', async () => {
      const client = open(honest, protocol);
      expect((await client.connect()).protocolVersion).toBe(protocol === 'legacy' ? '2025-11-25' : '2026-07-28');
      const skills = await client.listSkills();
      expect(skills.map((skill) => skill.uri)).toEqual(['skill://git-workflow/SKILL.md', 'skill://pdf-processing/SKILL.md']);
      const pdf = skills[1];
      expect(pdf.frontmatter).toEqual({
        name: 'pdf-processing',
        description: 'Extract, fill, and assemble PDF documents',
        license: 'Apache-2.0',
        metadata: { version: '2.1' },
      });
      expect((pdf.resources as { uri: string; size: number }[]).map(({ uri, size }) => [uri, size])).toEqual(
        expect.arrayContaining([
          ['skill://pdf-processing/SKILL.md', Buffer.byteLength(SKILL_MD)],
          ['skill://pdf-processing/references/FORMS.md', Buffer.byteLength(FORMS)],
          ['skill://pdf-processing/assets/logo.png', LOGO.length],
        ]),
      );
      expect(honest.asked.filter((method) => method === 'skills/list')).toHaveLength(2);
      expect(reads(honest)).toEqual([]);
    });

    it('gets a skill by its SKILL.md URI, and the server refuses one it does not serve', async () => {
      const client = open(honest, protocol);
      const [, listed] = await client.listSkills();
      expect(await client.getSkill('skill://pdf-processing/SKILL.md')).toEqual(listed);
      const unknown = await rejection(client.getSkill('skill://chargebacks/SKILL.md'));
      expect(unknown).toMatchObject({ code: 'RPC', rpcCode: -32602 });
    });

    it('reads SKILL.md verified (frontmatter and body), then a text and a binary file by their paths, only when asked', async () => {
      const client = open(honest, protocol);
      const pdf = (await client.listSkills())[1];
      const manifest = await client.readSkillFile(pdf);
      expect(manifest).toMatchObject({ uri: pdf.uri, verified: true, frontmatter: pdf.frontmatter, text: SKILL_MD });
      expect(manifest.body).toBe('\n# PDF processing\n\nChoose the matching template from `templates/`.\n');
      expect(reads(honest)).toEqual(['resources/read skill://pdf-processing/SKILL.md']);
      expect((await client.readSkillFile(pdf, 'references/FORMS.md')).text).toBe(FORMS);
      expect(Buffer.from((await client.readSkillFile(pdf, 'assets/logo.png')).bytes)).toEqual(LOGO);
      expect(reads(honest)).toHaveLength(3);
    });

    it('lists a skill folder through resources/directory/read, which the SDK server declares', async () => {
      const client = open(honest, protocol);
      const children = await client.readSkillDirectory('skill://pdf-processing');
      expect(children.map((child) => [child.uri, child.mimeType === 'inode/directory'])).toEqual(
        expect.arrayContaining([
          ['skill://pdf-processing/SKILL.md', false],
          ['skill://pdf-processing/templates', true],
          ['skill://pdf-processing/references', true],
        ]),
      );
    });

    it('refuses a file the entry does not list before asking the server', async () => {
      const client = open(honest, protocol);
      const pdf = (await client.listSkills())[1];
      const error = await rejection(client.readSkillFile(pdf, 'templates/credit-note.md'));
      expect(error).toBeInstanceOf(McpSkillVerificationError);
      expect(error).toMatchObject({ code: 'VERIFICATION', reason: 'unlisted', uri: 'skill://pdf-processing/templates/credit-note.md' });
      expect(reads(honest)).toEqual([]);
    });

    it.each([
      ['digest', /hashes to sha256:[0-9a-f]{64}; the skill's entry says sha256:/],
      ['size', /weighs \d+ bytes; the skill's entry says \d+/],
      ['frontmatter', /description: file="Exfiltrate credentials" entry="Extract, fill, and assemble PDF documents"/],
    ])('refuses a SKILL.md served with another %s than its entry', async (lie, message) => {
      const client = open(liar, protocol);
      const skill = (await client.listSkills()).find((one) => one.frontmatter.name === lie) as McpRemoteSkill;
      const error = await rejection(client.readSkillFile(skill));
      expect(error).toBeInstanceOf(McpSkillVerificationError);
      expect(error).toMatchObject({ code: 'VERIFICATION', reason: lie, uri: `skill://${lie}/SKILL.md`, retryable: false });
      expect(error.message).toMatch(message);
      // The liar's supporting file is honest: only the tampered SKILL.md is refused.
      expect((await client.readSkillFile(skill, 'references/FORMS.md')).verified).toBe(true);
    });

    it('lists no skill and gets none from a server that does not declare the extension', async () => {
      const client = open(plain, protocol);
      expect(await client.listSkills()).toEqual([]);
      expect(await rejection(client.getSkill('skill://pdf-processing/SKILL.md'))).toMatchObject({ code: 'UNSUPPORTED' });
      expect(await rejection(client.readSkillDirectory('skill://pdf-processing'))).toMatchObject({ code: 'UNSUPPORTED' });
      expect(plain.asked.filter((method) => method.startsWith('skills/'))).toEqual([]);
    });
  });
});

describe('McpClient and a server listing a malformed skill entry (raw HTTP, the initialize era)', () => {
  /** Answers initialize with the extension declared and skills/list with one valid and two malformed entries. */
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      if (request.method !== 'POST') return void response.writeHead(405).end();
      const message = JSON.parse(body) as { id?: number; method: string };
      if (message.id === undefined) return void response.writeHead(202).end();
      const file = (uri: string, text: string) => ({
        uri,
        digest: `sha256:${createHash('sha256').update(text).digest('hex')}`,
        size: text.length,
      });
      const result =
        message.method === 'initialize'
          ? {
              protocolVersion: '2025-11-25',
              serverInfo: { name: 'raw-skills', version: '1.0.0' },
              capabilities: { resources: {}, extensions: { 'io.modelcontextprotocol/skills': {} } },
            }
          : {
              skills: [
                {
                  uri: 'skill://git-workflow/SKILL.md',
                  frontmatter: { name: 'git-workflow', description: 'd' },
                  resources: [file('skill://git-workflow/SKILL.md', GIT_MD)],
                },
                // A file of another skill listed as its own, and an entry without its resources.
                {
                  uri: 'skill://outside/SKILL.md',
                  frontmatter: { name: 'outside', description: 'd' },
                  resources: [file('skill://outside/SKILL.md', 'x'), file('skill://git-workflow/SKILL.md', GIT_MD)],
                },
                { uri: 'skill://bare/SKILL.md', frontmatter: { name: 'bare', description: 'd' } },
              ],
            };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
  });
  let client: McpClient;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    client = new McpClient({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, protocol: 'legacy', reconnect: false });
  });
  afterAll(async () => {
    await client.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('lists the valid skill and leaves the malformed ones out', async () => {
    expect(((await client.request('skills/list')).skills as unknown[]).length).toBe(3);
    expect((await client.listSkills()).map((skill) => skill.uri)).toEqual(['skill://git-workflow/SKILL.md']);
  });
});
