import type { McpOpenApiSource } from '../mcp-openapi-options.interface.js';
import { MCP_OPENAPI_OPTIONS } from './openapi.options.js';

const resolve = (sources: unknown) => MCP_OPENAPI_OPTIONS.resolve(sources as McpOpenApiSource[], 'sources.openapi', undefined);

describe('the openapi option', () => {
  it('is empty when unset and keeps what a gateway passes (name, document URL, baseUrl, forwardAuthorization)', () => {
    expect(resolve(undefined)).toEqual([]);
    const source = {
      name: 'helpdesk',
      document: 'http://127.0.0.1:3100/docs-json',
      baseUrl: 'http://127.0.0.1:3100/',
      forwardAuthorization: true,
    };
    expect(resolve([source])).toEqual([{ ...source, baseUrl: 'http://127.0.0.1:3100', forwardAuthorization: true }]);
  });

  it.each([
    [[{}], '"sources.openapi[0].document" must be a URL, a file path, the document object or a function returning it'],
    [[{ document: 'a.json', name: 'has space' }], '"sources.openapi[0].name" must be 1 to 32 letters'],
    [[{ document: 'a.json', baseUrl: 'ftp://x' }], '"sources.openapi[0].baseUrl" must be an absolute http(s) URL'],
    [[{ document: 'a.json', include: {} }], '"sources.openapi[0].include" must name at least one tag or operation'],
    [[{ document: 'a.json', timeoutMs: 0 }], '"sources.openapi[0].timeoutMs" must be a positive integer'],
    [[{ document: 'a.json', headers: 'x' }], '"sources.openapi[0].headers" must be an object of header values or a function'],
    [
      [
        { name: 'a', document: 'a.json' },
        { name: 'a', document: 'b.json' },
      ],
      '"sources.openapi" gives two documents the same name',
    ],
    ['a.json', '"sources.openapi" must be an array of { document, name?, baseUrl?, ... }'],
  ])('refuses %j, naming the option', (value, message) => {
    expect(() => resolve(value)).toThrow(
      expect.objectContaining({ code: 'MCP_ERR_OPTION_INVALID', message: expect.stringContaining(message) }),
    );
  });
});
