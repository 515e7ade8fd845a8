/** Wire constants of revision 2026-07-28 (its revisions are in core/protocol-revisions.ts). */

/** The per-request `_meta` envelope keys. */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/** Id of the tasks extension (SEP-2663) in `capabilities.extensions`. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Error codes the revision adds (-32020 … -32022); nothing else in -32020 … -32099 may be used. */
export const Rev20260728ErrorCode = {
  HEADER_MISMATCH: -32020,
  MISSING_REQUIRED_CLIENT_CAPABILITY: -32021,
  UNSUPPORTED_PROTOCOL_VERSION: -32022,
} as const;

/** HTTP request headers of the revision, lower-case as Node exposes them. */
export const Rev20260728Header = {
  protocolVersion: 'mcp-protocol-version',
  method: 'mcp-method',
  name: 'mcp-name',
  paramPrefix: 'mcp-param-',
} as const;

/** Methods that may answer `input_required` (MRTR). */
export const INPUT_REQUIRED_METHODS: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** Results that carry caching hints (`ttlMs`, `cacheScope`). */
export const CACHEABLE_METHODS: ReadonlySet<string> = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  // The Skills extension (SEP-2640): its results are cacheable results.
  'skills/list',
  'skills/get',
  'resources/directory/read',
]);

/**
 * Methods the 2026-07-28 era serves through the shared dispatcher (when their feature is declared). Everything else
 * a 2026-07-28 request names — removed methods (`initialize`, `ping`, `logging/setLevel`, `resources/subscribe`,
 * `tasks/result`...) included — is an unknown method: HTTP 404, -32601.
 */
export const DISPATCHED_METHODS: ReadonlySet<string> = new Set([
  'tools/list',
  'tools/call',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'completion/complete',
  'skills/list',
  'skills/get',
  'resources/directory/read',
]);

/** The body field `Mcp-Name` mirrors, per method. */
export const MCP_NAME_SOURCE: Readonly<Record<string, 'name' | 'uri' | 'taskId'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};
