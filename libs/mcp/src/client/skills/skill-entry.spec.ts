import { createHash } from 'node:crypto';
import { MCP_SKILL_LIMITS } from '../../core/mcp-skills.constants.js';
import { checkSkillEntry, checkSkillListing, skillsCapabilityOf } from './skill-entry.js';
import { McpSkillVerificationError } from './skill-verification.error.js';

const digest = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;
const file = (uri: string, text = 'x') => ({ uri, digest: digest(text), size: Buffer.byteLength(text) });
const entry = (overrides: Record<string, unknown> = {}) => ({
  uri: 'skill://acme/refunds/SKILL.md',
  frontmatter: { name: 'refunds', description: 'Refund requests', license: 'MIT' },
  resources: [file('skill://acme/refunds/SKILL.md'), file('skill://acme/refunds/examples/email.md')],
  ...overrides,
});
const reasonOf = (value: unknown) => {
  const checked = checkSkillEntry(value, 'skills[0]');
  return checked instanceof McpSkillVerificationError ? `${checked.reason}: ${checked.message}` : 'valid';
};

describe('checkSkillEntry', () => {
  it('accepts a complete entry, a nested skill path and a "dynamic" one', () => {
    expect(reasonOf(entry())).toBe('valid');
    expect(reasonOf(entry({ uri: 'skill://refunds/SKILL.md', resources: [file('skill://refunds/SKILL.md')] }))).toBe('valid');
    expect(reasonOf(entry({ resources: 'dynamic' }))).toBe('valid');
  });

  it('refuses an entry without a SKILL.md uri, a name or a description', () => {
    expect(reasonOf('nope')).toMatch(/^entry: .*skills\[0\] is not an object/);
    expect(reasonOf(entry({ uri: 'skill://acme/refunds/README.md' }))).toMatch(/^entry: .*no SKILL.md uri/);
    expect(reasonOf(entry({ frontmatter: { name: 'refunds' } }))).toMatch(/^entry: .*no frontmatter with a name and a description/);
  });

  it('refuses a name that is not the last segment of its path', () => {
    expect(reasonOf(entry({ frontmatter: { name: 'chargebacks', description: 'd' } }))).toMatch(
      /named "chargebacks", not after its folder "refunds"/,
    );
  });

  it('refuses resources missing, outside the folder, listed twice, without a digest or size, or without SKILL.md', () => {
    expect(reasonOf(entry({ resources: undefined }))).toMatch(/neither a list nor "dynamic"/);
    expect(reasonOf(entry({ resources: [file('skill://acme/refunds/SKILL.md'), file('skill://acme/other/x.md')] }))).toMatch(
      /outside its folder/,
    );
    expect(reasonOf(entry({ resources: [file('skill://acme/refunds/SKILL.md'), file('skill://acme/refunds/../x.md')] }))).toMatch(
      /outside its folder/,
    );
    expect(reasonOf(entry({ resources: [file('skill://acme/refunds/SKILL.md'), file('skill://acme/refunds/%53KILL.md')] }))).toMatch(
      /twice/,
    );
    expect(reasonOf(entry({ resources: [{ uri: 'skill://acme/refunds/SKILL.md', digest: 'md5:00', size: 1 }] }))).toMatch(
      /without a sha256 digest/,
    );
    expect(reasonOf(entry({ resources: [{ uri: 'skill://acme/refunds/SKILL.md', digest: digest('x'), size: -1 }] }))).toMatch(
      /without a size/,
    );
    expect(reasonOf(entry({ resources: [file('skill://acme/refunds/a.md')] }))).toMatch(/does not list its own SKILL.md/);
  });

  it('refuses a skill over 512 files or 16 MiB from its entry alone', () => {
    const many = Array.from({ length: MCP_SKILL_LIMITS.files }, (_, i) => file(`skill://acme/refunds/f${i}.md`));
    expect(reasonOf(entry({ resources: [file('skill://acme/refunds/SKILL.md'), ...many.slice(1)] }))).toBe('valid');
    expect(reasonOf(entry({ resources: [file('skill://acme/refunds/SKILL.md'), ...many] }))).toMatch(/^limits: .*513 files/);
    const heavy = { uri: 'skill://acme/refunds/big.bin', digest: digest('x'), size: MCP_SKILL_LIMITS.bytes };
    expect(reasonOf(entry({ resources: [file('skill://acme/refunds/SKILL.md'), heavy] }))).toMatch(/^limits: .*16777217 bytes/);
  });
});

describe('checkSkillListing', () => {
  it('keeps the valid entries and refuses the malformed ones and every copy of a repeated uri', () => {
    const other = entry({ uri: 'skill://git/SKILL.md', frontmatter: { name: 'git', description: 'd' }, resources: 'dynamic' });
    const { skills, refused } = checkSkillListing([entry(), other, entry(), { uri: 1 }]);
    expect(skills.map((skill) => skill.uri)).toEqual(['skill://git/SKILL.md']);
    expect(refused.map((error) => error.message)).toEqual([
      'The skill skill://acme/refunds/SKILL.md is listed twice',
      'The skill skill://acme/refunds/SKILL.md is listed twice',
      'The skill skills[3] has no SKILL.md uri',
    ]);
  });
});

describe('skillsCapabilityOf', () => {
  it('reads the declaration, an empty object included, and nothing else', () => {
    expect(skillsCapabilityOf({ extensions: { 'io.modelcontextprotocol/skills': {} } })).toEqual({});
    expect(skillsCapabilityOf({ extensions: { 'io.modelcontextprotocol/skills': { directoryRead: true } } })).toEqual({
      directoryRead: true,
    });
    expect(skillsCapabilityOf({ extensions: { 'io.modelcontextprotocol/skills': true } })).toBeUndefined();
    expect(skillsCapabilityOf({ resources: {} })).toBeUndefined();
  });
});
