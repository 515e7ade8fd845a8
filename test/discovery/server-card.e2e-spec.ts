import { createRequire } from 'node:module';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Test } from '@nestjs/testing';
import { McpConfigurationError, McpModule, SUPPORTED_PROTOCOL_VERSIONS, type McpModuleForRootOptions } from '@nest-mcp/core';
import { listenMcp, startWeatherApp, type ListenOptions, type RunningApp } from '../kit/apps.js';
import { JSON_HEADERS, initializeRequest, send, type HttpAnswer } from '../kit/http.js';

/**
 * The MCP Server Card (SEP-2127) over raw HTTP: its shape, validated against the draft's JSON Schema
 * (`server-card.schema.json`, from modelcontextprotocol/experimental-ext-server-card at 8924e08), its absolute
 * URLs (from `publicUrl`, else the request; `X-Forwarded-*` only with `trustProxy`), caching (ETag, 304), CORS,
 * `enabled: false`, and the boot errors of its options. The URLs it names are then used as a client would.
 */

const WELL_KNOWN = '/.well-known/mcp/server-card.json';
const RESERVED = '/mcp/server-card';
const CARD_TYPE = 'application/mcp-server-card+json';
const SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';
const STREAMABLE_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'];

const schema = createRequire(import.meta.url)('./server-card.schema.json') as object;
const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module) as typeof Ajv2020Module.default;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (ajv: object) => void;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(schema, 'server-card.schema.json');
const validateCard = ajv.getSchema('server-card.schema.json#/$defs/ServerCard')!;

/** The schema violations of a card (empty when valid). */
function violations(card: unknown): string[] {
  return validateCard(card) ? [] : (validateCard.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
}

const BASE_OPTIONS: McpModuleForRootOptions = { name: 'card-server', version: '2.3.4', title: 'Card', description: 'Serves a card' };

const startApp = (options: Partial<McpModuleForRootOptions> = {}, listenOptions: ListenOptions = {}): Promise<RunningApp> =>
  listenMcp({ ...BASE_OPTIONS, ...options }, [], listenOptions);

const getCard = (url: string, headers: Record<string, string> = {}): Promise<HttpAnswer> => send(url, { method: 'GET', headers });

describe('GET /.well-known/mcp/server-card.json with the defaults', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp({ auth: { apiKeys: [{ key: 'card-test-key-0123456789', tenant: 'acme' }] } });
  });
  afterAll(() => app?.close());

  it('answers a card built from the module options, valid against the Server Card schema, without credentials', async () => {
    const answer = await getCard(`${app.base}${WELL_KNOWN}`);
    expect(answer.status).toBe(200);
    expect(answer.contentType).toMatch(/^application\/json/);
    expect(answer.json).toEqual({
      $schema: SCHEMA_URL,
      name: 'local.127-0-0-1/card-server',
      version: '2.3.4',
      description: 'Serves a card',
      title: 'Card',
      remotes: [
        { type: 'streamable-http', url: `${app.base}/mcp`, supportedProtocolVersions: STREAMABLE_VERSIONS },
        { type: 'sse', url: `${app.base}/sse`, supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS] },
      ],
    });
    expect(violations(answer.json)).toEqual([]);
    // The validator bites: the module's own name is no reverse-DNS card name.
    expect(violations({ ...answer.json, name: 'card-server' })).not.toEqual([]);
    // The endpoint itself still wants the key: only the discovery document is public.
    expect((await send(`${app.base}/mcp`, { method: 'POST', headers: JSON_HEADERS, body: initializeRequest() })).status).toBe(401);
  });

  it('is cacheable and readable by any page: Cache-Control, a strong ETag, the CORS headers the draft requires', async () => {
    const answer = await getCard(`${app.base}${WELL_KNOWN}`, { Origin: 'https://elsewhere.example' });
    expect(answer.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(answer.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{20,}"$/);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('access-control-allow-methods')).toBe('GET');
    expect(answer.headers.get('access-control-allow-headers')).toBe('Content-Type, If-None-Match');
    expect(answer.headers.get('access-control-expose-headers')).toBe('ETag');
    expect(answer.headers.get('vary')).toBe('Accept');

    const preflight = await send(`${app.base}${WELL_KNOWN}`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://elsewhere.example',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'if-none-match',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('Content-Type, If-None-Match');
  });

  it('answers 304 with no body on a matching If-None-Match (also weak, in a list, or *), 200 on another tag', async () => {
    const first = await getCard(`${app.base}${WELL_KNOWN}`);
    const etag = first.headers.get('etag')!;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await getCard(`${app.base}${WELL_KNOWN}`, { 'If-None-Match': ifNoneMatch });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      expect(again.headers.get('cache-control')).toBe('public, max-age=3600');
    }
    const changed = await getCard(`${app.base}${WELL_KNOWN}`, { 'If-None-Match': '"not-this-one"' });
    expect(changed.status).toBe(200);
    expect(changed.json).toEqual(first.json);
    expect(changed.headers.get('etag')).toBe(etag);
  });

  it('serves the same card at <path>/server-card, in the card media type when the client asks for it', async () => {
    const plain = await getCard(`${app.base}${WELL_KNOWN}`);
    const reserved = await getCard(`${app.base}${RESERVED}`, { Accept: CARD_TYPE });
    expect(reserved.status).toBe(200);
    expect(reserved.contentType).toMatch(new RegExp(`^${CARD_TYPE.replace(/[+.]/g, '\\$&')}`));
    expect(JSON.parse(reserved.text)).toEqual(plain.json);
    // Another representation, another validator.
    expect(reserved.headers.get('etag')).not.toBe(plain.headers.get('etag'));
    expect((await getCard(`${app.base}${RESERVED}`, { 'If-None-Match': plain.headers.get('etag')! })).status).toBe(304);
  });
});

describe('the URLs of the card', () => {
  const forwarded = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'proxy.example.org' };
  const remoteUrls = (answer: HttpAnswer) => (answer.json.remotes as { url: string }[]).map((remote) => remote.url);

  it('come from publicUrl when it is set, whatever the request says, and name the card after its host', async () => {
    const app = await startApp({ http: { publicUrl: 'https://mcp.example.com/api/', trustProxy: true } });
    try {
      const answer = await getCard(`${app.base}${WELL_KNOWN}`, forwarded);
      expect(remoteUrls(answer)).toEqual(['https://mcp.example.com/api/mcp', 'https://mcp.example.com/api/sse']);
      expect(answer.json.name).toBe('com.example.mcp/card-server');
      expect(answer.headers.get('vary')).toBe('Accept');
      expect(violations(answer.json)).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('ignore X-Forwarded-* unless trustProxy is set', async () => {
    const app = await startApp();
    try {
      const answer = await getCard(`${app.base}${WELL_KNOWN}`, forwarded);
      expect(remoteUrls(answer)).toEqual([`${app.base}/mcp`, `${app.base}/sse`]);
    } finally {
      await app.close();
    }
  });

  it('follow X-Forwarded-Proto and X-Forwarded-Host with trustProxy (and say so in Vary; the ETag follows)', async () => {
    const app = await startApp({ http: { trustProxy: true } });
    try {
      const direct = await getCard(`${app.base}${WELL_KNOWN}`);
      const proxied = await getCard(`${app.base}${WELL_KNOWN}`, forwarded);
      expect(remoteUrls(proxied)).toEqual(['https://proxy.example.org/mcp', 'https://proxy.example.org/sse']);
      expect(proxied.json.name).toBe('org.example.proxy/card-server');
      expect(proxied.headers.get('vary')).toBe('Accept, X-Forwarded-Host, X-Forwarded-Proto');
      expect(proxied.headers.get('etag')).not.toBe(direct.headers.get('etag'));
      const stale = await getCard(`${app.base}${WELL_KNOWN}`, { ...forwarded, 'If-None-Match': direct.headers.get('etag')! });
      expect(stale.status).toBe(200);
      expect(violations(proxied.json)).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('carry the global prefix of the app, and list only Streamable HTTP when ssePath is false', async () => {
    const app = await startApp({ ssePath: false }, { globalPrefix: 'api' });
    try {
      const answer = await getCard(`${app.base}/api${WELL_KNOWN}`);
      expect(answer.json.remotes).toEqual([
        { type: 'streamable-http', url: `${app.base}/api/mcp`, supportedProtocolVersions: STREAMABLE_VERSIONS },
      ]);
      expect((await getCard(`${app.base}/api${RESERVED}`)).json).toEqual(answer.json);
    } finally {
      await app.close();
    }
  });

  it('are where the SDK clients connect: Streamable HTTP and the 2024-11-05 HTTP+SSE transport', async () => {
    const app = await listenMcp({ name: 'card-server', version: '2.3.4' });
    try {
      const card = (await getCard(`${app.base}${WELL_KNOWN}`)).json as { remotes: { type: string; url: string }[] };
      for (const remote of card.remotes) {
        const client = new Client({ name: 'card-reader', version: '1.0.0' });
        const url = new URL(remote.url);
        await client.connect(remote.type === 'sse' ? new SSEClientTransport(url) : new StreamableHTTPClientTransport(url));
        try {
          expect(client.getServerVersion()).toMatchObject({ name: 'card-server', version: '2.3.4' });
        } finally {
          await client.close();
        }
      }
    } finally {
      await app.close();
    }
  });
});

describe('serverCard options', () => {
  it('enabled: false → 404 on both paths (and on the preflight)', async () => {
    const app = await startApp({ serverCard: { enabled: false } });
    try {
      expect((await getCard(`${app.base}${WELL_KNOWN}`)).status).toBe(404);
      expect((await getCard(`${app.base}${RESERVED}`)).status).toBe(404);
      expect((await send(`${app.base}${WELL_KNOWN}`, { method: 'OPTIONS' })).status).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('name, description, websiteUrl, repository, icons and maxAgeSec go into the card as given', async () => {
    const serverCard = {
      name: 'com.example/weather',
      description: 'Current weather and forecasts',
      websiteUrl: 'https://example.com/weather',
      repository: { url: 'https://github.com/example/weather', source: 'github', subfolder: 'apps/weather' },
      icons: [{ src: 'https://example.com/icon-48.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'light' as const }],
      maxAgeSec: 60,
    };
    const app = await startApp({ serverCard });
    try {
      const answer = await getCard(`${app.base}${WELL_KNOWN}`);
      const { maxAgeSec: _maxAge, ...fields } = serverCard;
      expect(answer.json).toMatchObject({ ...fields, title: 'Card', version: '2.3.4' });
      expect(answer.headers.get('cache-control')).toBe('public, max-age=60');
      expect(violations(answer.json)).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('fits inherited texts to the schema: a long module description and title are cut to 100 characters', async () => {
    const app = await startApp({ description: 'A very long description. '.repeat(10), title: 'T'.repeat(150) });
    try {
      const answer = await getCard(`${app.base}${WELL_KNOWN}`);
      expect(Array.from(answer.json.description as string)).toHaveLength(100);
      expect(answer.json.description).toMatch(/^A very long description\. .*…$/);
      expect(answer.json.title).toHaveLength(100);
      expect(violations(answer.json)).toEqual([]);
    } finally {
      await app.close();
    }
    const bare = await listenMcp({ name: 'bare', version: '1.0.0' });
    try {
      const answer = await getCard(`${bare.base}${WELL_KNOWN}`);
      expect(answer.json.description).toBe('MCP server bare');
      expect(answer.json).not.toHaveProperty('title');
      expect(violations(answer.json)).toEqual([]);
    } finally {
      await bare.close();
    }
  });

  async function bootError(serverCard: unknown): Promise<Error> {
    const moduleRef = Test.createTestingModule({
      imports: [McpModule.forRoot({ ...BASE_OPTIONS, serverCard } as McpModuleForRootOptions)],
    });
    const error = await moduleRef.compile().then(
      async (compiled) => {
        await compiled.close();
        return undefined;
      },
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(McpConfigurationError);
    return error as Error;
  }

  it.each([
    ['serverCard.name', { name: 'weather' }, 'com.example/weather'],
    ['serverCard.name', { name: 'com.example/weather/extra' }, 'exactly one "/"'],
    ['serverCard.description', { description: '' }, '1 to 100'],
    ['serverCard.description', { description: 'x'.repeat(101) }, '1 to 100'],
    ['serverCard.websiteUrl', { websiteUrl: 'example.com' }, 'absolute http(s) URL'],
    ['serverCard.repository.source', { repository: { url: 'https://github.com/example/weather' } }, 'github'],
    ['serverCard.icons[0].src', { icons: [{ src: 'icon.png' }] }, 'http(s) or data: URI'],
    ['serverCard.icons[0].theme', { icons: [{ src: 'https://example.com/i.png', theme: 'blue' }] }, '"light" or "dark"'],
    ['serverCard.maxAgeSec', { maxAgeSec: -1 }, 'at least 0'],
    ['serverCard.enabled', { enabled: 'yes' }, 'boolean'],
    ['serverCard.enable', { enable: false }, 'serverCard.enabled'],
  ])('refuses a bad %s at boot, naming it', async (option, serverCard, hint) => {
    const error = await bootError(serverCard);
    expect(error.message).toContain(`"${option}"`);
    expect(error.message).toContain(hint);
  });
});

describe('the weather server', () => {
  it('serves its card, named from MCP_SERVER_CARD_NAME and valid against the schema', async () => {
    const app = await startWeatherApp({ env: { MCP_SERVER_CARD_NAME: 'com.example/weather' } });
    try {
      const answer = await getCard(`${app.base}${WELL_KNOWN}`);
      expect(answer.json).toMatchObject({ name: 'com.example/weather', version: '1.0.0', title: 'Weather' });
      expect(answer.json.remotes[0]).toMatchObject({ type: 'streamable-http', url: `${app.base}/mcp` });
      expect(violations(answer.json)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
