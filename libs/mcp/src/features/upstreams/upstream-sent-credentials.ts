import { AsyncLocalStorage } from 'node:async_hooks';
import { McpClientError } from '../../client/mcp-client.error.js';
import { credentialValues, withoutCredentials } from '../../auth/outbound/sent-credentials.js';

type Headers = Readonly<Record<string, string>>;

/** The headers the requests of the call being sent carried (noted by the session's header function). */
const SENT = new AsyncLocalStorage<Headers[]>();

/** Notes the headers a request of the current call is sending (nothing outside a call); read only if the call fails. */
export function noteSentHeaders(headers: Headers): void {
  SENT.getStore()?.push(headers);
}

/**
 * Runs one upstream call and rewrites its error without the credentials it sent (`also`: ones given otherwise, a
 * stdio child's environment): the upstream's error message goes to our caller. Its results are relayed untouched.
 */
export async function withoutSentCredentials<T>(also: Headers, call: () => Promise<T>): Promise<T> {
  const sent: Headers[] = [also];
  try {
    return await SENT.run(sent, call);
  } catch (error) {
    if (!(error instanceof McpClientError)) throw error;
    // The values are gathered here, on the error path, not for every request of every call.
    const values = new Set<string>();
    for (const headers of sent) credentialValues(headers, values);
    if (values.size === 0) throw error;
    const message = withoutCredentials(error.message, values);
    if (message === error.message) throw error;
    throw new McpClientError(error.code, message, { rpcCode: error.rpcCode, status: error.status });
  }
}
