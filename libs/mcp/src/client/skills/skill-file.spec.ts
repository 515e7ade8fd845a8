import { createHash } from 'node:crypto';
import type { McpRemoteSkill } from './skill.types.js';
import { readSkillFile, resolveSkillRef } from './skill-file.js';
import { McpSkillVerificationError } from './skill-verification.error.js';

const SKILL_MD =
  '---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\nmetadata:\n  version: "2.1"\n---\n\nSkill body.\n';
const FORMS = 'Supporting content.\n';
const digest = (bytes: string | Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
const listed = (uri: string, bytes: string | Buffer) => ({ uri, digest: digest(bytes), size: Buffer.byteLength(bytes) });
const skill: McpRemoteSkill = {
  uri: 'skill://pdf-processing/SKILL.md',
  frontmatter: { name: 'pdf-processing', description: 'Extract, fill, and assemble PDF documents', metadata: { version: '2.1' } },
  resources: [listed('skill://pdf-processing/SKILL.md', SKILL_MD), listed('skill://pdf-processing/references/FORMS.md', FORMS)],
};

/** A reader serving `files` as text (or a blob for a Buffer) and noting what was read. */
function serving(files: Record<string, string | Buffer>) {
  const reads: string[] = [];
  const read = async (uri: string) => {
    reads.push(uri);
    const body = files[uri];
    return {
      contents: [typeof body === 'string' ? { uri, mimeType: 'text/markdown', text: body } : { uri, blob: body.toString('base64') }],
    };
  };
  return { read, reads };
}

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(McpSkillVerificationError);
  return error as McpSkillVerificationError;
};

describe('readSkillFile', () => {
  it('reads SKILL.md verified, with its frontmatter and body, and a supporting file by its relative path', async () => {
    const { read, reads } = serving({ [skill.uri]: SKILL_MD, 'skill://pdf-processing/references/FORMS.md': FORMS });
    const manifest = await readSkillFile(read, skill);
    expect(manifest).toMatchObject({
      uri: skill.uri,
      verified: true,
      text: SKILL_MD,
      body: '\nSkill body.\n',
      frontmatter: skill.frontmatter,
    });
    const forms = await readSkillFile(read, skill, 'references/FORMS.md#top');
    expect(Buffer.from(forms.bytes).toString()).toBe(FORMS);
    expect(forms.frontmatter).toBeUndefined();
    expect(reads).toEqual([skill.uri, 'skill://pdf-processing/references/FORMS.md']);
  });

  it('verifies a binary file from its base64 blob', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255]);
    const withImage = { ...skill, resources: [...(skill.resources as []), listed('skill://pdf-processing/logo.png', png)] };
    const { read } = serving({ 'skill://pdf-processing/logo.png': png });
    expect(Buffer.from((await readSkillFile(read, withImage, 'logo.png')).bytes)).toEqual(png);
  });

  it('refuses a file the entry does not list, and a path climbing out of the skill, before any request', async () => {
    const { read, reads } = serving({});
    expect((await refusal(readSkillFile(read, skill, 'references/NEW.md'))).reason).toBe('unlisted');
    expect((await refusal(readSkillFile(read, skill, '../other/SKILL.md'))).reason).toBe('unlisted');
    expect((await refusal(readSkillFile(read, skill, 'skill://other/SKILL.md'))).reason).toBe('unlisted');
    expect(reads).toEqual([]);
  });

  it('refuses bytes of another size, then of another digest', async () => {
    const longer = serving({ [skill.uri]: `${SKILL_MD}extra bytes` });
    const size = await refusal(readSkillFile(longer.read, skill));
    expect(size).toMatchObject({ reason: 'size', code: 'VERIFICATION', uri: skill.uri });
    expect(size.message).toBe(
      `${skill.uri} weighs ${Buffer.byteLength(SKILL_MD) + 11} bytes; the skill's entry says ${Buffer.byteLength(SKILL_MD)}`,
    );
    const tampered = serving({ [skill.uri]: SKILL_MD.replace('Skill body.', 'Evil body!!') });
    expect((await refusal(readSkillFile(tampered.read, skill))).reason).toBe('digest');
  });

  it('refuses a SKILL.md whose frontmatter differs from the entry, even when its digest matches', async () => {
    const lying = SKILL_MD.replace('description: Extract, fill, and assemble PDF documents', 'description: Exfiltrate credentials');
    const entry = { ...skill, resources: [listed(skill.uri, lying)] };
    const error = await refusal(readSkillFile(serving({ [skill.uri]: lying }).read, entry));
    expect(error.reason).toBe('frontmatter');
    expect(error.differences).toEqual(['description: file="Exfiltrate credentials" entry="Extract, fill, and assemble PDF documents"']);
  });

  it('compares the frontmatter as YAML values (a quoted and a bare string are one value) and refuses a missing block', async () => {
    const requoted = SKILL_MD.replace('name: pdf-processing', "name: 'pdf-processing'");
    expect(
      (await readSkillFile(serving({ [skill.uri]: requoted }).read, { ...skill, resources: [listed(skill.uri, requoted)] })).verified,
    ).toBe(true);
    const bare = 'Skill body.\n';
    expect(
      (await refusal(readSkillFile(serving({ [skill.uri]: bare }).read, { ...skill, resources: [listed(skill.uri, bare)] }))).reason,
    ).toBe('frontmatter');
  });

  it('reads a "dynamic" skill unverified, yet still refuses a SKILL.md with another frontmatter', async () => {
    const dynamic: McpRemoteSkill = { ...skill, resources: 'dynamic' };
    const { read } = serving({ [skill.uri]: SKILL_MD, 'skill://pdf-processing/today.md': 'live' });
    expect((await readSkillFile(read, dynamic)).verified).toBe(false);
    expect((await readSkillFile(read, dynamic, 'today.md')).text).toBe('live');
    const lying = serving({ [skill.uri]: SKILL_MD.replace('name: pdf-processing', 'name: other') });
    expect((await refusal(readSkillFile(lying.read, dynamic))).reason).toBe('frontmatter');
  });

  it('refuses a malformed entry given by the caller before any request', async () => {
    const { read, reads } = serving({});
    expect((await refusal(readSkillFile(read, { ...skill, resources: [] }))).reason).toBe('entry');
    expect(reads).toEqual([]);
  });
});

describe('resolveSkillRef', () => {
  it('resolves against the skill folder, not the scheme root', () => {
    expect(resolveSkillRef('skill://acme/billing/refunds/SKILL.md', 'references/GUIDE.md')).toBe(
      'skill://acme/billing/refunds/references/GUIDE.md',
    );
    expect(resolveSkillRef('skill://acme/billing/refunds/SKILL.md', './a/../b.md')).toBe('skill://acme/billing/refunds/b.md');
    expect(resolveSkillRef('skill://acme/billing/refunds/SKILL.md', 'skill://x/y.md#z')).toBe('skill://x/y.md');
  });
});
