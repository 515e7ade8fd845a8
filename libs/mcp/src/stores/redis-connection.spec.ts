import { McpConfigurationError } from '../core/errors/mcp-configuration.error.js';
import { loadIoredisModule, redactRedisUrl } from './redis-connection.js';

const loadIoredis = async (importer?: Parameters<typeof loadIoredisModule>[0]) => (await loadIoredisModule(importer)).Redis;

describe('loadIoredis', () => {
  it('loads the client class when ioredis is installed', async () => {
    expect(typeof (await loadIoredis())).toBe('function');
  });

  it('turns a missing ioredis into a boot error that says what to install', async () => {
    const missing = Object.assign(new Error("Cannot find package 'ioredis'"), { code: 'ERR_MODULE_NOT_FOUND' });
    const failure = loadIoredis(() => Promise.reject(missing));
    await expect(failure).rejects.toThrow(McpConfigurationError);
    await expect(failure).rejects.toThrow('install ioredis to use the redis option');
  });

  it('lets any other import failure through unchanged', async () => {
    const broken = new SyntaxError('bad build');
    await expect(loadIoredis(() => Promise.reject(broken))).rejects.toBe(broken);
  });
});

describe('redactRedisUrl', () => {
  it('masks the password and keeps the rest', () => {
    expect(redactRedisUrl('redis://user:s3cret@cache:6380/2')).toBe('redis://user:***@cache:6380/2');
    expect(redactRedisUrl('rediss://cache:6380')).toBe('rediss://cache:6380');
  });

  it('never echoes what it cannot parse', () => {
    expect(redactRedisUrl('not a url with secret')).toBe('<invalid redis url>');
  });
});
