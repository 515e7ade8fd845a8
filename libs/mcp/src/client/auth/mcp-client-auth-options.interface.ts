/**
 * Where the client keeps what authorization gave it (tokens, dynamic registrations): a key-value store with TTLs
 * (Redis, a database). Values are sealed (AES-256-GCM, `tokens.encryptionKey`) before they reach it, and keys are
 * hashes: the store holds no token, principal or issuer in the clear.
 * @publicApi
 */
export interface McpClientTokenStore {
  get<T>(key: string): Promise<T | undefined>;
  set<T>(key: string, value: T, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
}

/**
 * A client registered with the authorization server beforehand. Without `issuer` it is used with whatever
 * authorization server the MCP server names; with it, only with that one (a server that moves to another
 * authorization server gets a fresh registration there, never these credentials).
 * @publicApi
 */
export interface McpClientPreRegistration {
  clientId: string;
  /** For `client_secret_basic` (the default with a secret) or `client_secret_post`. */
  clientSecret?: string;
  /** A PKCS#8 PEM or a `CryptoKey`: authenticates with `private_key_jwt` (RFC 7523) signed with `signingAlgorithm`. */
  privateKey?: string | CryptoKey;
  /** `ES256` by default. */
  signingAlgorithm?: 'ES256' | 'ES384' | 'ES512' | 'RS256' | 'PS256' | 'EdDSA';
  /** How the client authenticates at the token endpoint; by default the one its credentials allow that the server offers. */
  tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none';
  /** The issuer these credentials belong to. */
  issuer?: string;
}

/**
 * Sign-in of a user: authorization code with PKCE (S256). The client builds the authorization URL; `authorize`
 * shows it to the user (opens a browser, or hands the URL to whoever drives the client) and resolves with the URL
 * the authorization server redirected back to (`redirectUri` with `code`, `state` and perhaps `iss`).
 * @publicApi
 */
export interface McpClientAuthorizationCodeGrant {
  type: 'authorization_code';
  /** Registered with the authorization server: a loopback `http://127.0.0.1:<port>/callback` or an `https` URL. */
  redirectUri: string;
  authorize(authorizationUrl: URL): Promise<URL | string>;
}

/** The client acts for itself (machine to machine): client credentials, with pre-registered credentials. @publicApi */
export interface McpClientClientCredentialsGrant {
  type: 'client_credentials';
}

/**
 * OAuth 2.1 for a client of a protected MCP server. On a 401 the client reads the server's protected-resource
 * metadata (RFC 9728), then its authorization server's metadata (RFC 8414 / OpenID discovery), identifies itself
 * (pre-registration, a client ID metadata document, or dynamic registration), obtains a token for the server
 * (`resource`, RFC 8707) and sends the request again; a 403 `insufficient_scope` asks for the union of the scopes
 * (at most `maxStepUps` times per request). Tokens are refreshed when they expire.
 * @publicApi
 */
export interface McpClientOAuthOptions {
  grant: McpClientAuthorizationCodeGrant | McpClientClientCredentialsGrant;
  /** Credentials registered beforehand (required for `client_credentials`). */
  client?: McpClientPreRegistration;
  /**
   * An `https` URL serving this client's metadata document: used as the client ID with authorization servers that
   * say `client_id_metadata_document_supported`.
   */
  clientMetadataUrl?: string;
  /** `client_name` of a dynamic registration (`nest-mcp-client`). */
  clientName?: string;
  /** The scopes to ask for; by default the challenge's `scope`, else the server's `scopes_supported`, else none. */
  scope?: string;
  /** Ask for a refresh token (`offline_access`) when the authorization server offers it (true). */
  offlineAccess?: boolean;
  /** Scope step-ups one request may go through (2). */
  maxStepUps?: number;
  /** Allows `http` authorization servers and metadata (never in production: loopback tests only). */
  allowInsecureHttp?: boolean;
  tokens?: {
    /** Where tokens and registrations are kept (in this process by default). */
    store?: McpClientTokenStore;
    /** Encrypts what is stored (AES-256-GCM under a key derived from it); required with a `store`. */
    encryptionKey?: string | Uint8Array;
    /** Whose tokens these are (`default`): clients acting for several users keep one key each. */
    principal?: string;
  };
  /** Time each request to the authorization server may take (10 s). */
  timeoutMs?: number;
}
