import type { McpOutboundAuth } from './mcp-outbound-auth.interface.js';

/**
 * Which operations of an OpenAPI document become tools: by tag or by operation (its `operationId`, or the tool name
 * made of it). An operation is picked when it has one of the tags or is one of the operations.
 * @publicApi
 */
export interface McpOpenApiSelection {
  tags?: string[];
  operations?: string[];
}

/** Who a credential is for: the caller's tenant and, when authenticated, its principal. @publicApi */
export interface McpOpenApiCaller {
  readonly tenant: string;
  readonly subject?: string;
}

/**
 * An OpenAPI 3.0 or 3.1 document of an HTTP API whose operations become tools (the module option `sources.openapi`). Each
 * call is a real HTTP request to `baseUrl`. Needs the optional peer dependency `@scalar/openapi-parser`.
 * @publicApi
 * @example
 * McpModule.forRoot({
 *   name: 'assistant',
 *   version: '1.0.0',
 *   openapi: [{ name: 'helpdesk', document: 'http://127.0.0.1:3100/docs-json', forwardAuthorization: true }],
 * })
 */
export interface McpOpenApiSource {
  /**
   * Names the source in messages and prefixes its tools: `helpdesk` makes `createTicket` the tool
   * `helpdesk_create_ticket`. Unset: tools are named after the operation alone.
   */
  name?: string;
  /**
   * The document: an `http(s)://` URL fetched at boot, a file path (JSON or YAML), the document itself (such as
   * `SwaggerModule.createDocument()`'s result), or a function returning it, called at boot.
   */
  document: string | Record<string, unknown> | (() => Record<string, unknown> | Promise<Record<string, unknown>>);
  /**
   * Where requests go (`https://api.example.com/v1`). Default: the document's first `servers` URL, else the document
   * URL's origin; for a document fetched from a URL, a `servers` URL on another origin than the document's fails the
   * boot (`MCP_ERR_OPENAPI_SERVERS_ORIGIN`), so only this option can send the calls to another origin.
   */
  baseUrl?: string;
  /** Only these operations (by tag or operation); all by default. */
  include?: McpOpenApiSelection;
  /** Not these operations (by tag or operation), applied after `include`. */
  exclude?: McpOpenApiSelection;
  /** The credential each request carries: a token exchanged for the caller's (RFC 8693) or this server's own (client credentials). */
  auth?: McpOutboundAuth;
  /**
   * Send the MCP caller's `Authorization` header with each request (off by default). Only for one trust domain (an
   * API that accepts the tokens this server does); refused with `auth.oauth` (`MCP_ERR_TOKEN_PASSTHROUGH`): use
   * `auth.tokenExchange`.
   */
  forwardAuthorization?: boolean;
  /**
   * Headers sent with each request: fixed (`{ 'X-API-Key': '…' }`) or per caller (a tenant's own credential). A
   * forwarded `Authorization` replaces the one given here.
   */
  headers?: Record<string, string> | ((caller: McpOpenApiCaller) => Record<string, string> | Promise<Record<string, string>>);
  /** How long one request may take, in ms (the module's `tools.timeoutMs` by default); then the call ends as TIMEOUT. */
  timeoutMs?: number;
  /** Largest response body read, in bytes (1 MiB); a larger one is not read further and the call ends as RESPONSE_TOO_LARGE. */
  maxResponseBytes?: number;
}
