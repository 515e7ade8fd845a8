import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../kit/build.js';

/**
 * The client's HTTP stack (undici) is loaded by its first exchange, not with the library: loaded, undici's fetch half
 * made every in-process tool call of a server that never calls out about 20 % dearer (the bench's in-process A/B).
 * A process that imports the built library, as an app does, shows what is loaded.
 */
const SCRIPT = `
import { createRequire } from 'node:module';
const { McpClient } = await import('@nest-mcp/core');
const cache = createRequire(process.cwd() + '/').cache;
const loaded = () => Object.keys(cache).some((path) => path.includes('/node_modules/undici/'));
const before = loaded();
const client = new McpClient({ url: 'http://127.0.0.1:1/mcp', reconnect: false });
const failed = await client.connect().then(() => 'connected', (error) => error.code);
await client.close();
console.log(JSON.stringify({ before, failed, after: loaded() }));
`;

describe('loading the library', () => {
  it('leaves undici unloaded until a client makes its first HTTP exchange', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', SCRIPT], {
      cwd: REPO_ROOT,
      timeout: 30_000,
    });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ before: false, failed: 'UNAVAILABLE', after: true });
  });
});
