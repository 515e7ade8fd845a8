import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { loadSkillYaml } from './skill-frontmatter.js';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { loadSkillFolder } from './skill-folder.loader.js';

const MANIFEST = '---\nname: trip\ndescription: Plan a trip.\n---\n\n# Trip\n';

beforeAll(() => loadSkillYaml());

describe('loadSkillFolder', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'mcp-skills-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** `<root>/skills/<name>/<path>` files. */
  const skill = (name: string, files: Record<string, string | Buffer>) => {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(join(root, 'skills', name, path, '..'), { recursive: true });
      writeFileSync(join(root, 'skills', name, path), content);
    }
  };
  const codeOf = async (promise: Promise<unknown>) =>
    promise.then(
      () => 'booted',
      (error: unknown) => (error instanceof McpConfigurationError ? error.code : String(error)),
    );

  it('builds each skill with the sha256 digest and size of every file, SKILL.md first', async () => {
    skill('trip', { 'SKILL.md': MANIFEST, 'templates/plan.md': 'Plan', 'a.json': '{}' });
    const [built] = await loadSkillFolder(join(root, 'skills'));
    const sha = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;
    expect(built.entry).toEqual({
      uri: 'skill://trip/SKILL.md',
      frontmatter: { name: 'trip', description: 'Plan a trip.' },
      resources: [
        { uri: 'skill://trip/SKILL.md', digest: sha(MANIFEST), size: Buffer.byteLength(MANIFEST) },
        { uri: 'skill://trip/a.json', digest: sha('{}'), size: 2 },
        { uri: 'skill://trip/templates/plan.md', digest: sha('Plan'), size: 4 },
      ],
    });
    expect(built.directories.get('skill://trip')?.map((child) => [child.uri, child.mimeType])).toEqual([
      ['skill://trip/templates', 'inode/directory'],
      ['skill://trip/SKILL.md', 'text/markdown'],
      ['skill://trip/a.json', 'application/json'],
    ]);
    expect(Buffer.from(await built.files.get('skill://trip/templates/plan.md')!.read()).toString()).toBe('Plan');
  });

  it('refuses to serve a file whose bytes changed since boot', async () => {
    skill('trip', { 'SKILL.md': MANIFEST, 'notes.txt': 'one' });
    const [built] = await loadSkillFolder(join(root, 'skills'));
    writeFileSync(join(root, 'skills', 'trip', 'notes.txt'), 'two');
    await expect(built.files.get('skill://trip/notes.txt')!.read()).rejects.toThrow('changed since boot');
  });

  it('fails the boot for a symlink leading out of the skill folder', async () => {
    skill('trip', { 'SKILL.md': MANIFEST });
    writeFileSync(join(root, 'secret.txt'), 'secret');
    symlinkSync(join(root, 'secret.txt'), join(root, 'skills', 'trip', 'leak.txt'));
    expect(await codeOf(loadSkillFolder(join(root, 'skills')))).toBe('MCP_ERR_SKILL_PATH');
  });

  it('follows a symlink to a file inside the same skill', async () => {
    skill('trip', { 'SKILL.md': MANIFEST, 'real.md': 'x' });
    symlinkSync(join(root, 'skills', 'trip', 'real.md'), join(root, 'skills', 'trip', 'alias.md'));
    const [built] = await loadSkillFolder(join(root, 'skills'));
    expect(built.files.get('skill://trip/alias.md')?.size).toBe(1);
  });

  it('fails the boot for a skill over 16 MiB, before reading it', async () => {
    skill('trip', { 'SKILL.md': MANIFEST, 'big.bin': Buffer.alloc(16 * 1024 * 1024) });
    expect(await codeOf(loadSkillFolder(join(root, 'skills')))).toBe('MCP_ERR_SKILL_LIMIT');
  });

  it('fails the boot for more than 512 files', async () => {
    const files: Record<string, string> = { 'SKILL.md': MANIFEST };
    for (let i = 0; i < 512; i++) files[`f/${i}.txt`] = '';
    skill('trip', files);
    expect(await codeOf(loadSkillFolder(join(root, 'skills')))).toBe('MCP_ERR_SKILL_LIMIT');
  });

  it.each([
    ['no frontmatter', '# Trip\n', 'MCP_ERR_SKILL_FRONTMATTER'],
    ['invalid YAML', '---\nname: [trip\n---\n', 'MCP_ERR_SKILL_FRONTMATTER'],
    ['no description', '---\nname: trip\n---\n', 'MCP_ERR_SKILL_FRONTMATTER'],
    ['a name breaking the rules', '---\nname: Trip--x\ndescription: d\n---\n', 'MCP_ERR_SKILL_NAME'],
    ['a name other than the folder', '---\nname: voyage\ndescription: d\n---\n', 'MCP_ERR_SKILL_NAME'],
    [
      'a reserved metadata key',
      '---\nname: trip\ndescription: d\nmetadata:\n  io.modelcontextprotocol/x: 1\n---\n',
      'MCP_ERR_SKILL_RESERVED_METADATA',
    ],
  ])('fails the boot for a SKILL.md with %s', async (_case, manifest, code) => {
    skill('trip', { 'SKILL.md': manifest });
    expect(await codeOf(loadSkillFolder(join(root, 'skills')))).toBe(code);
  });

  it('fails the boot for a skill without SKILL.md, and for a missing folder', async () => {
    skill('trip', { 'README.md': 'x' });
    expect(await codeOf(loadSkillFolder(join(root, 'skills')))).toBe('MCP_ERR_SKILL_FRONTMATTER');
    expect(await codeOf(loadSkillFolder(join(root, 'nowhere')))).toBe('MCP_ERR_SKILL_FOLDER');
  });
});
