import { Inject, Injectable, Optional, type OnModuleInit } from '@nestjs/common';
import { McpBootNotices } from '../core/boot-notices.js';
import { McpGlobalPrefix } from '../options/mcp-global-prefix.js';
import { MCP_RESOLVED_OPTIONS } from '../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import type { McpPrincipal } from '../core/mcp-principal.interface.js';
import { McpOAuthBridgeHost } from './bridge/oauth-bridge.host.js';
import { CredentialsAuthenticator } from './credentials.authenticator.js';
import { McpAuthError } from './mcp-auth.error.js';
import type { McpAuthenticator, McpCredentials } from '../options/mcp-authenticator.interface.js';

/** Where RFC 9728 metadata is served (then the resource's path). */
const WELL_KNOWN_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

/** A message fit for an RFC 7230 quoted-string: no control characters (no header injection), quotes escaped. */
function quotedStringSafe(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/["\\]/g, (character) => `\\${character}`);
}

/** Authentication for every transport: HTTP headers or stdio's environment credentials → principal. */
@Injectable()
export class McpAuthService implements OnModuleInit {
  private readonly authenticator?: McpAuthenticator;
  private readonly builtIn?: CredentialsAuthenticator;
  /** What a caller without credentials is told to send: `X-API-Key` only where a key can be accepted. */
  private readonly missingCredentials: string;

  constructor(
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
    @Optional() private readonly globalPrefix?: McpGlobalPrefix,
    @Optional() private readonly notices: McpBootNotices = new McpBootNotices(),
    @Optional() bridgeHost?: McpOAuthBridgeHost,
  ) {
    const auth = options.auth;
    this.missingCredentials = `Authentication required: send Authorization: Bearer <token>${auth.authenticator || auth.apiKeys?.length ? ' or X-API-Key' : ''}`;
    if (auth.authenticator) this.authenticator = auth.authenticator;
    else if (auth.jwt || auth.oauth || auth.bridge || auth.apiKeys?.length)
      this.authenticator = this.builtIn = new CredentialsAuthenticator(
        auth,
        (resource) => this.globalPrefix?.resource(resource, this.options.path) ?? resource,
        bridgeHost?.bridge,
      );
  }

  /** Discovers the authorization server of `auth.oauth` (a coded boot error when it cannot be used). */
  async onModuleInit(): Promise<void> {
    await this.builtIn?.start();
    if (!this.enabled)
      this.notices.warn(
        'McpModule',
        'No authentication configured (auth.jwt, auth.oauth, auth.bridge, auth.apiKeys or auth.authenticator): every caller is served as tenant "default".',
      );
  }

  get enabled(): boolean {
    return this.authenticator !== undefined;
  }

  /** The caller; undefined when authentication is off. Throws McpAuthError when it is on and fails. */
  async authenticate(credentials: McpCredentials): Promise<McpPrincipal | undefined> {
    if (!this.authenticator) return undefined;
    const principal = await this.authenticator.authenticate(credentials);
    if (!principal) throw new McpAuthError('UNAUTHORIZED', this.missingCredentials);
    return principal;
  }

  /** `WWW-Authenticate` of a 401 (RFC 6750), pointing at the resource metadata when configured (RFC 9728). */
  challenge(error?: McpAuthError): string {
    const parts = ['Bearer realm="mcp"'];
    if (error && error.code !== 'UNAUTHORIZED')
      parts.push('error="invalid_token"', `error_description="${quotedStringSafe(error.message)}"`);
    const metadata = this.resourceMetadataUrl();
    if (metadata) parts.push(`resource_metadata="${metadata}"`);
    return parts.join(', ');
  }

  /** `WWW-Authenticate` of a 403 for missing scopes (step-up, spec 2025-11-25). */
  insufficientScopeChallenge(scopes: string[]): string {
    const parts = ['Bearer error="insufficient_scope"', `scope="${scopes.join(' ')}"`];
    const metadata = this.resourceMetadataUrl();
    if (metadata) parts.push(`resource_metadata="${metadata}"`);
    parts.push('error_description="The token lacks a scope this tool requires"');
    return parts.join(', ');
  }

  private resourceMetadataUrl(): string | undefined {
    const resource = this.options.auth.resourceMetadata?.resource;
    if (!resource) return undefined;
    const url = new URL(this.globalPrefix?.resource(resource, this.options.path) ?? resource);
    // Under a global prefix the RFC 9728 location (the resource's path after the well-known one) is not routed:
    // point where this server serves the document, the well-known route (prefixed unless excluded) + the MCP path.
    const prefix = this.globalPrefix;
    if (prefix && (prefix.of(this.options.path) || prefix.of(WELL_KNOWN_RESOURCE_PATH)))
      return `${url.origin}${prefix.of(WELL_KNOWN_RESOURCE_PATH)}${WELL_KNOWN_RESOURCE_PATH}${this.options.path}`;
    const path = url.pathname === '/' ? '' : url.pathname.replace(/\/+$/, '');
    return `${url.origin}${WELL_KNOWN_RESOURCE_PATH}${path}`;
  }
}
