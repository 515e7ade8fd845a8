import { metadataUrls } from './authorization-server.metadata.js';

describe('metadataUrls', () => {
  it('an issuer without a path: RFC 8414, then OpenID discovery', () => {
    expect(metadataUrls('https://as.example.com')).toEqual([
      'https://as.example.com/.well-known/oauth-authorization-server',
      'https://as.example.com/.well-known/openid-configuration',
    ]);
  });

  it('an issuer with a path (Keycloak, Entra ID): inserted forms first, then OpenID discovery appended', () => {
    expect(metadataUrls('https://login.example.com/realms/acme/')).toEqual([
      'https://login.example.com/.well-known/oauth-authorization-server/realms/acme',
      'https://login.example.com/.well-known/openid-configuration/realms/acme',
      'https://login.example.com/realms/acme/.well-known/openid-configuration',
    ]);
  });
});
