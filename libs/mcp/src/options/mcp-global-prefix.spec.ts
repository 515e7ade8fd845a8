import { ApplicationConfig } from '@nestjs/core';
import { McpGlobalPrefix } from './mcp-global-prefix.js';

/** Nest's own config, with the prefix set as `app.setGlobalPrefix(prefix, { exclude })` leaves it. */
function configWith(prefix: string, exclude: RegExp[] = []): ApplicationConfig {
  const config = new ApplicationConfig();
  config.setGlobalPrefix(prefix);
  config.setGlobalPrefixOptions({ exclude: exclude.map((pathRegex) => ({ path: '', requestMethod: -1, pathRegex })) } as never);
  return config;
}

describe('McpGlobalPrefix', () => {
  it('is empty without a global prefix', () => {
    const prefix = new McpGlobalPrefix(new ApplicationConfig());
    expect(prefix.of('/mcp')).toBe('');
    expect(prefix.resource('https://x.example/mcp', '/mcp')).toBe('https://x.example/mcp');
  });

  it.each(['api', '/api', '/api/', ' api '])('normalises %j to /api', (raw) => {
    expect(new McpGlobalPrefix(configWith(raw)).of('/mcp')).toBe('/api');
  });

  it('gives no prefix to a route the prefix excludes', () => {
    const prefix = new McpGlobalPrefix(configWith('api', [/^\/\.well-known(?:\/.*)?$/]));
    expect(prefix.of('/.well-known/oauth-protected-resource')).toBe('');
    expect(prefix.of('/mcp')).toBe('/api');
  });

  it('reads the config once (the prefix is settled before boot)', () => {
    const config = configWith('api');
    const prefix = new McpGlobalPrefix(config);
    expect(prefix.of('/mcp')).toBe('/api');
    config.setGlobalPrefix('other');
    expect(prefix.of('/mcp')).toBe('/api');
  });

  it('prefixes a resource written as the bare MCP path, and leaves any other as the deployer wrote it', () => {
    const prefix = new McpGlobalPrefix(configWith('api'));
    expect(prefix.resource('https://x.example/mcp', '/mcp')).toBe('https://x.example/api/mcp');
    expect(prefix.resource('https://x.example/api/mcp', '/mcp')).toBe('https://x.example/api/mcp');
    expect(prefix.resource('https://x.example/proxy/mcp', '/mcp')).toBe('https://x.example/proxy/mcp');
  });
});
