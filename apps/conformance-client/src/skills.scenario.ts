import { McpSkillVerificationError, type McpClient } from '@nest-mcp/core';

/**
 * A host loading each listed skill: its SKILL.md first (size, digest and frontmatter verified), then its other
 * files. A refused SKILL.md means the skill is not loaded: none of its files is read, and the run goes on (the
 * refusal is the expected outcome of the suite's verify scenarios, not a client failure).
 */
export async function loadEverySkill(client: McpClient): Promise<void> {
  for (const skill of await client.listSkills()) {
    try {
      await client.readSkillFile(skill);
    } catch (error) {
      if (!(error instanceof McpSkillVerificationError)) throw error;
      process.stderr.write(`conformance-client: refused the skill ${skill.uri} (${error.reason}): ${error.message}\n`);
      continue;
    }
    const others = skill.resources === 'dynamic' ? [] : skill.resources.filter((file) => file.uri !== skill.uri);
    for (const file of others) await client.readSkillFile(skill, file.uri);
  }
}
