import { isClientIdUrl } from './client-metadata-document.js';
import { isAcceptableRedirectUri } from './redirect-uri.js';

describe('client ID URLs and redirect URIs', () => {
  it('takes https URLs with a path as client ID metadata documents; loopback http only when allowed', () => {
    expect(isClientIdUrl('https://app.example.com/client.json', false)).toBe(true);
    expect(isClientIdUrl('https://app.example.com/', false)).toBe(false);
    expect(isClientIdUrl('https://app.example.com/a/../client.json', false)).toBe(false);
    expect(isClientIdUrl('https://user:pw@app.example.com/client.json', false)).toBe(false);
    expect(isClientIdUrl('https://app.example.com/client.json#x', false)).toBe(false);
    expect(isClientIdUrl('http://127.0.0.1:8080/client.json', false)).toBe(false);
    expect(isClientIdUrl('http://127.0.0.1:8080/client.json', true)).toBe(true);
    expect(isClientIdUrl('http://internal.example/client.json', true)).toBe(false);
    expect(isClientIdUrl('registered-id', true)).toBe(false);
  });

  it('registers https redirect URIs, and http on loopback only (RFC 8252)', () => {
    expect(isAcceptableRedirectUri('https://app.example.com/cb')).toBe(true);
    expect(isAcceptableRedirectUri('http://127.0.0.1:5000/cb')).toBe(true);
    expect(isAcceptableRedirectUri('http://localhost/cb')).toBe(true);
    expect(isAcceptableRedirectUri('http://app.example.com/cb')).toBe(false);
    expect(isAcceptableRedirectUri('https://app.example.com/cb#fragment')).toBe(false);
    expect(isAcceptableRedirectUri('javascript:alert(1)')).toBe(false);
    expect(isAcceptableRedirectUri(42)).toBe(false);
  });
});
