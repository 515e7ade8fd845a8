import { join } from 'node:path';
import { REPO_ROOT } from './build.js';

/** The reference server `@modelcontextprotocol/server-everything` (a dev dependency), run as a stdio child. */
export const EVERYTHING_MAIN = join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

/** Its tool that reports progress once per step (`duration` seconds split into `steps`). */
export const EVERYTHING_LONG_TOOL = 'trigger-long-running-operation';
