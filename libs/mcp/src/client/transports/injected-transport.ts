import type { McpClientTransport } from './client-transport.interface.js';

/**
 * Transports handed to a client from outside its options: how `@nest-mcp/core/testing` wires an `McpClient` to an
 * app in the same process. Keyed by the client, so the public options stay `url` or `command`.
 */
const injected = new WeakMap<object, () => McpClientTransport>();

/** Makes `client` open its connections with `factory` instead of HTTP or a child process. */
export function injectClientTransport(client: object, factory: () => McpClientTransport): void {
  injected.set(client, factory);
}

/** The factory injected for `client`, if any. */
export function injectedTransportOf(client: object): (() => McpClientTransport) | undefined {
  return injected.get(client);
}
