import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** `apps/conformance-server/skills`, from the sources (`src`) or the build (`dist/apps/conformance-server`). */
export const CONFORMANCE_SKILLS_FOLDER =
  [join(here, '..', 'skills'), join(here, '..', '..', '..', 'apps', 'conformance-server', 'skills')].find((folder) =>
    existsSync(join(folder, 'conformance-fixture', 'SKILL.md')),
  ) ?? join(here, '..', 'skills');
