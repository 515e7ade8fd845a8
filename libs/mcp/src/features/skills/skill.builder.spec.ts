import { loadSkillYaml } from './skill-frontmatter.js';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { buildSkill } from './skill.builder.js';

const files = (entries: Record<string, string>) =>
  new Map(Object.entries(entries).map(([path, text]) => [path, { bytes: Buffer.from(text) }]));
const MANIFEST = '---\nname: trip\ndescription: Plan a trip.\n---\n';

beforeAll(() => loadSkillYaml());

describe('buildSkill', () => {
  it.each(['../outside.md', '/etc/passwd', 'a/../../b', 'a\\b', 'a//b', './a'])('refuses the path %s with MCP_ERR_SKILL_PATH', (path) => {
    let error: unknown;
    try {
      buildSkill('test', files({ 'SKILL.md': MANIFEST, [path]: 'x' }));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect((error as McpConfigurationError).code).toBe('MCP_ERR_SKILL_PATH');
  });

  it('keeps the frontmatter verbatim as JSON (YAML 1.2 core: a date stays a string)', () => {
    const skill = buildSkill(
      'test',
      files({ 'SKILL.md': '---\nname: trip\ndescription: "Plan: a trip"\nmetadata:\n  since: 2026-01-02\n  n: 3\n---\n' }),
    );
    expect(skill.frontmatter).toEqual({ name: 'trip', description: 'Plan: a trip', metadata: { since: '2026-01-02', n: 3 } });
  });
});
