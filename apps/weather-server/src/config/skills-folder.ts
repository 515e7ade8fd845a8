import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * `apps/weather-server/skills` (the Agent Skills the server serves), from the sources (`src/config`, the tests) or
 * from the build (`dist/apps/weather-server/config`): the skills are files the compiler does not copy.
 */
export const WEATHER_SKILLS_FOLDER =
  [join(here, '..', '..', 'skills'), join(here, '..', '..', '..', '..', 'apps', 'weather-server', 'skills')].find((folder) =>
    existsSync(join(folder, 'weather-briefing', 'SKILL.md')),
  ) ?? join(here, '..', '..', 'skills');
