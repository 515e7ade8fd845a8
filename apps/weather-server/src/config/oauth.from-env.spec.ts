import { McpConfigurationError } from '@nest-mcp/core';
import { oauthEnvProblem, oauthFromEnv } from './mcp-options.from-env.js';

describe('the weather server’s MCP_OAUTH_* variables', () => {
  it('no MCP_OAUTH_ISSUER: no auth.oauth', () => {
    expect(oauthFromEnv({ MCP_OAUTH_AUDIENCE: 'x' })).toEqual({});
  });

  it('the resource is this server’s MCP URL: http://HOST:PORT/mcp, or MCP_PUBLIC_URL/mcp', () => {
    expect(oauthFromEnv({ MCP_OAUTH_ISSUER: 'https://as.example.com', PORT: '4000' })).toEqual({
      oauth: { issuer: 'https://as.example.com', resource: 'http://127.0.0.1:4000/mcp' },
    });
    expect(oauthFromEnv({ MCP_OAUTH_ISSUER: 'https://as.example.com', MCP_PUBLIC_URL: 'https://mcp.example.com/' }).oauth?.resource).toBe(
      'https://mcp.example.com/mcp',
    );
  });

  it('audience, tenant claim and introspection client when given', () => {
    expect(
      oauthFromEnv({
        MCP_OAUTH_ISSUER: 'https://as.example.com',
        MCP_OAUTH_AUDIENCE: 'api://weather',
        MCP_OAUTH_TENANT_CLAIM: 'org',
        MCP_OAUTH_INTROSPECTION_CLIENT_ID: 'rs',
        MCP_OAUTH_INTROSPECTION_CLIENT_SECRET: 'secret',
      }).oauth,
    ).toEqual({
      issuer: 'https://as.example.com',
      resource: 'http://127.0.0.1:3000/mcp',
      audience: 'api://weather',
      tenantClaim: 'org',
      introspection: { clientId: 'rs', clientSecret: 'secret' },
    });
  });

  it('one introspection variable without the other is a problem named on one line', () => {
    const env = { MCP_OAUTH_ISSUER: 'https://as.example.com', MCP_OAUTH_INTROSPECTION_CLIENT_ID: 'rs' };
    expect(() => oauthFromEnv(env)).toThrow(McpConfigurationError);
    expect(oauthEnvProblem(env)).toMatch(/^MCP_OAUTH_INTROSPECTION_CLIENT_ID and MCP_OAUTH_INTROSPECTION_CLIENT_SECRET go together/);
    expect(oauthEnvProblem({ MCP_OAUTH_ISSUER: 'https://as.example.com' })).toBeUndefined();
  });
});
