import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './build.js';

/**
 * The Python that runs the Python client tests: the project's virtual environment that `.ci/ensure-test-deps` (npm
 * test's pretest) fills with mcp and fastmcp, else the machine's `python3`.
 */
export function pythonOf(repo: string = REPO_ROOT): string {
  const venv = join(repo, '.venv', 'bin', 'python');
  return existsSync(venv) ? venv : 'python3';
}

export const PYTHON = pythonOf();
