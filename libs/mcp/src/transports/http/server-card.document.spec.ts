import { defaultCardName } from './server-card.document.js';
import { SERVER_CARD_NAME_PATTERN } from '../../options/declarations/server-card.options.js';

describe('defaultCardName', () => {
  it.each([
    ['mcp.example.com', 'com.example.mcp/weather'],
    ['Example.COM.', 'com.example/weather'],
    // No DNS name to reverse: one label under `local`, still reverse-DNS (was `127.0.0.1/weather`, not that form).
    ['localhost', 'local.localhost/weather'],
    ['127.0.0.1', 'local.127-0-0-1/weather'],
    ['[::1]', 'local.--1/weather'],
  ])('%s → %s, a reverse-DNS name the Server Card schema accepts', (hostname, expected) => {
    const name = defaultCardName(hostname, 'weather');
    expect(name).toBe(expected);
    expect(name).toMatch(SERVER_CARD_NAME_PATTERN);
  });

  it('stays within the 200 characters of the schema, keeping the server name whole', () => {
    const name = defaultCardName(`${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.example.com`, 's'.repeat(64));
    expect(name.length).toBeLessThanOrEqual(200);
    expect(name.endsWith(`/${'s'.repeat(64)}`)).toBe(true);
  });
});
