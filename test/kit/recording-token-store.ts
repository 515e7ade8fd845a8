import type { McpClientTokenStore } from '@nest-mcp/core';

/** A token store for McpClient's `auth.tokens.store` that keeps what it is given in `values`, to look at it. */
export function recordingTokenStore(): McpClientTokenStore & { values: Map<string, unknown> } {
  const values = new Map<string, unknown>();
  return {
    values,
    get: async <T>(key: string) => values.get(key) as T | undefined,
    set: async (key, value) => void values.set(key, value),
    delete: async (key) => void values.delete(key),
  };
}
