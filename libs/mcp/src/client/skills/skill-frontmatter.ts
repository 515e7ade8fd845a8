import { isDeepStrictEqual } from 'node:util';
import { parse } from 'yaml';
import { isPlainObject } from '../../core/plain-object.js';

/** The leading `---` block of a SKILL.md (after a BOM; CRLF allowed) and the markdown after it. */
const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** A SKILL.md split into its frontmatter (JSON, YAML 1.2 core schema: no dates) and body; undefined when it has none. */
export function splitSkillMarkdown(text: string): { frontmatter: Record<string, unknown>; body: string } | undefined {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const block = FRONTMATTER.exec(source);
  if (!block) return undefined;
  let value: unknown;
  try {
    // No aliases: a frontmatter is small, and an alias bomb would cost the host, not the server.
    value = parse(block[1], { schema: 'core', uniqueKeys: true, maxAliasCount: 0 });
  } catch {
    return undefined;
  }
  return isPlainObject(value) ? { frontmatter: value, body: source.slice(block[0].length) } : undefined;
}

/** Field by field, one line per field whose values differ (a field on one side only differs too). */
export function frontmatterDifferences(file: Record<string, unknown>, entry: Record<string, unknown>): string[] {
  const differences: string[] = [];
  for (const field of new Set([...Object.keys(file), ...Object.keys(entry)])) {
    if (!isDeepStrictEqual(file[field] ?? null, entry[field] ?? null))
      differences.push(`${field}: file=${JSON.stringify(file[field] ?? null)} entry=${JSON.stringify(entry[field] ?? null)}`);
  }
  return differences;
}
