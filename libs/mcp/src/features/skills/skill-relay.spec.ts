import { McpSkillRegistry } from './mcp-skill.registry.js';
import type { RelayedSkill, SkillRequest } from './skill-relay.interface.js';

const caller = { tenant: 'default' };
const request = { context: {}, signal: new AbortController().signal } as unknown as SkillRequest;

/** A relayed skill at `root` that answers each read with the URI it was asked for. */
function relayed(root: string, name: string, withDirectories = false): RelayedSkill {
  const uri = `${root}/SKILL.md`;
  return {
    uri,
    root,
    entry: { uri, frontmatter: { name, description: `${name} skill` }, resources: [{ uri, digest: 'sha256:00', size: 1 }] },
    read: async (wanted) => ({ contents: [{ uri: wanted, text: `read ${wanted}` }] }),
    ...(withDirectories && {
      directory: async (wanted: string) => [{ uri: `${wanted}/SKILL.md`, name: 'SKILL.md', mimeType: 'text/markdown' }],
    }),
  };
}

describe('McpSkillRegistry with a relay (an upstream’s skills)', () => {
  it('lists relayed skills beside its own by URI, its own keeping a URI both hold', async () => {
    const registry = new McpSkillRegistry();
    registry.register({ files: { 'SKILL.md': '---\nname: docs\ndescription: A local skill named like the upstream.\n---\n' } });
    const mine = relayed('skill://docs', 'docs');
    registry.addRelay({ skills: [relayed('skill://docs/pdf', 'pdf'), mine] });
    const listed = await registry.listed(caller);
    expect(listed.map((skill) => skill.uri)).toEqual(['skill://docs/SKILL.md', 'skill://docs/pdf/SKILL.md']);
    expect(listed[0].entry).not.toBe(mine.entry);
    expect((await registry.entry('skill://docs/pdf/SKILL.md', caller))?.frontmatter.name).toBe('pdf');
  });

  it("reads a relayed file by the skill's whole root, not its first segment, and only for a request", async () => {
    const registry = new McpSkillRegistry();
    registry.addRelay({ skills: [relayed('skill://docs/pdf', 'pdf', true), relayed('skill://docs/git', 'git')] });
    expect(await registry.readRelayed('skill://docs/pdf/forms/a.md', request)).toEqual({
      contents: [{ uri: 'skill://docs/pdf/forms/a.md', text: 'read skill://docs/pdf/forms/a.md' }],
    });
    expect(await registry.readRelayed('skill://docs/pdfx/SKILL.md', request)).toBeUndefined();
    expect(await registry.readRelayed('skill://docs/SKILL.md', request)).toBeUndefined();
    expect(await registry.directory('skill://docs/pdf', caller, request)).toHaveLength(1);
    expect(await registry.directory('skill://docs/pdf', caller)).toBeUndefined();
    // An upstream that offers no directory reads: none relayed.
    expect(await registry.directory('skill://docs/git', caller, request)).toBeUndefined();
  });

  it('serves skills once a relay is added, and sees what the relay holds at each request', async () => {
    const registry = new McpSkillRegistry();
    expect(registry.served).toBe(false);
    const skills: RelayedSkill[] = [];
    registry.addRelay({ skills });
    expect(registry.served).toBe(true);
    expect(await registry.listed(caller)).toEqual([]);
    skills.push(relayed('skill://up/late', 'late'));
    expect((await registry.listed(caller)).map((skill) => skill.uri)).toEqual(['skill://up/late/SKILL.md']);
  });

  it("hides a relayed skill from a caller without its upstream's scopes (an anonymous caller: no check, as for resources)", async () => {
    const registry = new McpSkillRegistry();
    registry.addRelay({ skills: [{ ...relayed('skill://crm/deals', 'deals'), scopes: ['crm:use'] }] });
    const principal = (scopes: string[]) => ({ tenant: 'default', principal: { subject: 'ann', tenant: 'default', scopes, claims: {} } });
    expect(await registry.listed(principal([]))).toEqual([]);
    expect(await registry.entry('skill://crm/deals/SKILL.md', principal(['other']))).toBeUndefined();
    expect((await registry.listed(principal(['crm:use']))).map((skill) => skill.uri)).toEqual(['skill://crm/deals/SKILL.md']);
    expect(await registry.listed(caller)).toHaveLength(1);
  });
});
