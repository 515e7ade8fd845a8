import { AsyncLocalStorage } from 'node:async_hooks';
import { McpClientError } from '../../client/mcp-client.error.js';
import { credentialValues, withoutCredentials } from '../../auth/outbound/sent-credentials.js';

/** The header values the requests of the call being sent carried (noted by the session's header function). */
const SENT = new AsyncLocalStorage<Set<string>>();

/** Notes header values a request of the current call is sending (nothing outside a call). */
export function noteSentHeaders(headers: Readonly<Record<string, string>>): void {
  const sent = SENT.getStore();
  if (sent) credentialValues(headers, sent);
}

/**
 * Runs one upstream call and rewrites its error without the credentials it sent (`also`: ones given otherwise, a
 * stdio child's environment): the upstream's error message goes to our caller. Its results are relayed untouched.
 */
export async function withoutSentCredentials<T>(also: Readonly<Record<string, string>>, call: () => Promise<T>): Promise<T> {
  const sent = credentialValues(also);
  try {
    return await SENT.run(sent, call);
  } catch (error) {
    if (!(error instanceof McpClientError) || sent.size === 0) throw error;
    const message = withoutCredentials(error.message, sent);
    if (message === error.message) throw error;
    throw new McpClientError(error.code, message, { rpcCode: error.rpcCode, status: error.status });
  }
}
