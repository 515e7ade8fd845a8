import { McpClientError } from '../../client/mcp-client.error.js';
import { credentialValues, withoutCredentials } from '../../auth/outbound/sent-credentials.js';

type Headers = Readonly<Record<string, string>>;

/** The headers each call's requests carried, by the call's own `headers` object (noted by the session's header function). */
const SENT = new WeakMap<Headers, Headers[]>();

/**
 * Notes the headers a request of the call `call` (its `headers` option) is sending (nothing outside a call); read
 * only if the call fails.
 */
export function noteSentHeaders(call: Headers | undefined, headers: Headers): void {
  if (call !== undefined) SENT.get(call)?.push(headers);
}

/**
 * Runs one upstream call and rewrites its error without the credentials it sent (`also`: ones given otherwise, a
 * stdio child's environment): the upstream's error message goes to our caller. Its results are relayed untouched.
 * `call` is given a fresh headers object holding `own` (the call's credential): the `headers` option of its client
 * call, under which its requests' headers are noted.
 */
export async function withoutSentCredentials<T>(
  also: Headers,
  own: Headers | undefined,
  call: (headers: Headers) => Promise<T>,
): Promise<T> {
  const headers: Record<string, string> = Object.assign({}, own);
  const sent: Headers[] = [also, headers];
  SENT.set(headers, sent);
  try {
    return await call(headers);
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
