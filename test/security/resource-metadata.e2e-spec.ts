import { startSecApp } from './fixtures/sec-app.js';
import { HS_SECRET } from './fixtures/tokens.js';
import { type RunningApp, startWeatherApp } from '../kit/apps.js';
import { send } from '../kit/http.js';

/** RFC 9728 protected-resource metadata at the root and path-specific well-known URLs. */

const ROOT = '/.well-known/oauth-protected-resource';
const FOR_PATH = '/.well-known/oauth-protected-resource/mcp';

describe('/.well-known/oauth-protected-resource when auth.resourceMetadata is configured', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startSecApp({
      auth: {
        jwt: { secret: HS_SECRET },
        resourceMetadata: {
          resource: 'https://mcp.example.com/mcp',
          authorizationServers: ['https://auth.example.com'],
          scopesSupported: ['sec:read', 'sec:write'],
          resourceName: 'Security fixture',
        },
      },
    });
  });
  afterAll(() => app?.close());

  it.each([ROOT, FOR_PATH])('GET %s → 200 RFC 9728 JSON, without credentials', async (path) => {
    const answer = await send(`${app.base}${path}`, { method: 'GET' });
    expect(answer.status).toBe(200);
    expect(answer.contentType).toMatch(/^application\/json/);
    expect(answer.json).toEqual({
      resource: 'https://mcp.example.com/mcp',
      authorization_servers: ['https://auth.example.com'],
      bearer_methods_supported: ['header'],
      scopes_supported: ['sec:read', 'sec:write'],
      resource_name: 'Security fixture',
    });
  });

  it('the document contains no secret', async () => {
    const answer = await send(`${app.base}${ROOT}`, { method: 'GET' });
    expect(answer.text).not.toContain(HS_SECRET);
  });
});

describe('/.well-known/oauth-protected-resource with only the required fields', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startSecApp({
      auth: {
        jwt: { secret: HS_SECRET },
        resourceMetadata: { resource: 'https://mcp.example.com/mcp', authorizationServers: ['https://auth.example.com'] },
      },
    });
  });
  afterAll(() => app?.close());

  it.each([ROOT, FOR_PATH])('GET %s → resource, authorization_servers, bearer_methods_supported, the tools’ scopes', async (path) => {
    const answer = await send(`${app.base}${path}`, { method: 'GET' });
    expect(answer.status).toBe(200);
    // scopes_supported not configured: every scope some tool requires (read_thing, write_thing).
    expect(answer.json).toEqual({
      resource: 'https://mcp.example.com/mcp',
      authorization_servers: ['https://auth.example.com'],
      bearer_methods_supported: ['header'],
      scopes_supported: ['sec:read', 'sec:write'],
    });
  });
});

describe('/.well-known/oauth-protected-resource when not configured', () => {
  let weather: RunningApp;
  let fixture: RunningApp;
  beforeAll(async () => {
    weather = await startWeatherApp();
    fixture = await startSecApp({ auth: { jwt: { secret: HS_SECRET } } });
  });
  afterAll(async () => {
    await weather?.close();
    await fixture?.close();
  });

  it.each([ROOT, FOR_PATH])('weather-server: GET %s → 404', async (path) => {
    const answer = await send(`${weather.base}${path}`, { method: 'GET' });
    expect(answer.status).toBe(404);
    expect(answer.text).not.toContain('authorization_servers');
  });

  it.each([ROOT, FOR_PATH])('JWT without resourceMetadata: GET %s → 404', async (path) => {
    const answer = await send(`${fixture.base}${path}`, { method: 'GET' });
    expect(answer.status).toBe(404);
    expect(answer.text).not.toContain(HS_SECRET);
  });
});
