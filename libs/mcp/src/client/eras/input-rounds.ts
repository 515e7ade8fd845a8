import type { McpClientCallOptions } from '../mcp-client-options.interface.js';
import { McpClientError } from '../mcp-client.error.js';

/** Rounds of `input_required` one call may go through before the client gives up (the SDK's bound too). */
export const MAX_INPUT_ROUNDS = 8;

type InputHandler = NonNullable<McpClientCallOptions['onRequest']>;

/**
 * Answers the `inputRequests` of an `input_required` result (2026-07-28 multi round-trip requests): each entry
 * (`elicitation/create`, `sampling/createMessage`, `roots/list`) goes to `handler`, and the answers come back
 * under the same keys as `inputResponses`. No handler, or one that returns undefined, fails the call: the server
 * would only ask again.
 */
export async function answerInputRequests(
  method: string,
  inputRequests: unknown,
  handler: InputHandler | undefined,
): Promise<Record<string, unknown> | undefined> {
  if (inputRequests === undefined) return undefined;
  if (typeof inputRequests !== 'object' || inputRequests === null || Array.isArray(inputRequests)) {
    throw new McpClientError('PROTOCOL', `${method} answered input_required with inputRequests that are not an object`);
  }
  const entries = Object.entries(inputRequests as Record<string, unknown>);
  const responses: Record<string, unknown> = {};
  for (const [key, request] of entries) {
    const asked = request as { method?: unknown; params?: unknown } | null;
    if (typeof asked !== 'object' || asked === null || typeof asked.method !== 'string') {
      throw new McpClientError('PROTOCOL', `${method} answered input_required with a malformed request "${key}"`);
    }
    if (!handler) {
      throw new McpClientError('INPUT_REQUIRED', `${method} needs ${asked.method} and no onRequest answers it`, { data: inputRequests });
    }
    const params = typeof asked.params === 'object' && asked.params !== null ? (asked.params as Record<string, unknown>) : undefined;
    const answer = await handler(asked.method, params);
    if (answer === undefined) {
      throw new McpClientError('INPUT_REQUIRED', `${method} needs ${asked.method} and onRequest gave no answer`, { data: inputRequests });
    }
    responses[key] = answer;
  }
  return responses;
}

/** The params of the next round: the original ones, this round's answers and the server's state, byte for byte. */
export function retryParams(
  original: Record<string, unknown> | undefined,
  inputResponses: Record<string, unknown> | undefined,
  requestState: unknown,
): Record<string, unknown> {
  return {
    ...original,
    ...(inputResponses !== undefined && { inputResponses }),
    ...(typeof requestState === 'string' && { requestState }),
  };
}
