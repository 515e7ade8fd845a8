/** The few members of oidc-provider (no types shipped) that test/kit/authorization-server.ts uses. */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export type ClientMetadata = Record<string, unknown> & { client_id: string };

  export interface ResourceServerInfo {
    scope: string;
    audience?: string;
    accessTokenTTL?: number;
    accessTokenFormat?: 'opaque' | 'jwt';
  }

  export interface Configuration {
    clients?: ClientMetadata[];
    jwks?: { keys: Record<string, unknown>[] };
    scopes?: string[];
    /** Scope → the claims it releases (userinfo). */
    claims?: Record<string, string[]>;
    cookies?: { keys: string[] };
    ttl?: Record<string, number | ((ctx: unknown, token: { resourceServer?: { accessTokenTTL?: number } }) => number)>;
    features?: Record<string, Record<string, unknown>>;
    findAccount?: (ctx: unknown, sub: string) => { accountId: string; claims: () => Record<string, unknown> };
    extraTokenClaims?: (ctx: unknown, token: { clientId?: string; accountId?: string }) => Record<string, unknown>;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    callback(): (request: IncomingMessage, response: ServerResponse) => Promise<void>;
    on(event: string, listener: (...args: unknown[]) => void): this;
    /** Adds a grant type to the token endpoint (`params`: the request parameters it reads). */
    registerGrantType(name: string, handler: (ctx: never) => Promise<void>, params?: string[]): void;
    /** oidc-provider's access-token model (a JWT when its resource server says so). */
    AccessToken: new (init: Record<string, unknown>) => {
      resourceServer?: ResourceServerInfo & { audience: string };
      readonly expiration: number;
      scope?: string;
      save(): Promise<string>;
    };
  }
}
