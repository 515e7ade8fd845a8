/** One file of a skill as `skills/list` and `skills/get` carry it: what its bytes must hash to and weigh. @publicApi */
export interface McpRemoteSkillResource {
  uri: string;
  /** `sha256:` and 64 lowercase hex digits of the file's raw bytes. */
  digest: string;
  /** The length in bytes of the same raw bytes. */
  size: number;
}

/**
 * A skill of the server (SEP-2640) as `skills/list` or `skills/get` sent it, checked: its `uri` is its `SKILL.md`
 * and ends in its name, `resources` lists every file once (`SKILL.md` among them) within the skill's folder and
 * within the limits, or is `"dynamic"` (content without digests). Identify it by the server and `uri`, never by
 * its name alone: two servers, or two paths, may serve skills of the same name.
 * @publicApi
 */
export interface McpRemoteSkill {
  uri: string;
  /** The `SKILL.md` frontmatter as JSON, verbatim. */
  frontmatter: { name: string; description: string; [key: string]: unknown };
  resources: McpRemoteSkillResource[] | 'dynamic';
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A skill file read and verified by `McpClient.readSkillFile`. @publicApi */
export interface McpSkillFile {
  /** The URI read: the entry's spelling of the file. */
  uri: string;
  mimeType?: string;
  /** Exactly the bytes the entry's digest covers. */
  bytes: Uint8Array;
  /** When the server sent the file as text. */
  text?: string;
  /** Size and digest were checked against the entry: `false` only for a `"dynamic"` skill, which has none. */
  verified: boolean;
  /** The skill's own `SKILL.md` only: its frontmatter, equal field by field to the entry's. */
  frontmatter?: Record<string, unknown>;
  /** The skill's own `SKILL.md` only: the markdown after the frontmatter. */
  body?: string;
}
