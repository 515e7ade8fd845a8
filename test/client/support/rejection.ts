import { McpClientError } from '@nest-mcp/core';

/** The McpClientError a promise rejects with; fails when it resolves or rejects with anything else. */
export async function rejection(promise: Promise<unknown>): Promise<McpClientError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof McpClientError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}
