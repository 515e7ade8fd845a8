import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pythonOf } from './python.js';

describe('the Python of the Python client tests', () => {
  let repo: string;
  beforeEach(() => (repo = mkdtempSync(join(tmpdir(), 'nest-mcp-python-'))));
  afterEach(() => rmSync(repo, { recursive: true, force: true }));

  it("is the project's .venv once .ci/ensure-test-deps made it, else python3", () => {
    expect(pythonOf(repo)).toBe('python3');
    mkdirSync(join(repo, '.venv', 'bin'), { recursive: true });
    writeFileSync(join(repo, '.venv', 'bin', 'python'), '');
    expect(pythonOf(repo)).toBe(join(repo, '.venv', 'bin', 'python'));
  });
});
