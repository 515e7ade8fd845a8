import type { Request } from 'express';

/** Why a body could not be read; the HTTP layer maps each to a status. */
export type BodyReadFailure = 'too-large' | 'unparsable' | 'aborted';

/** A read body: the parsed JSON value, or the failure. */
export type BodyReadResult = { ok: true; value: unknown } | { ok: false; failure: BodyReadFailure };

/**
 * The parsed JSON body of a POST. When an application-wide parser (Nest's default) already ran, its result is
 * used; otherwise the stream is read here under `maxBytes`, so an MCP-only app (`bodyParser: false`) gets our
 * limit and our -32700 answers.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<BodyReadResult> {
  if (request.readableEnded) {
    return request.body === undefined ? { ok: false, failure: 'unparsable' } : { ok: true, value: request.body };
  }
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return { ok: false, failure: 'too-large' };
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of request as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) return { ok: false, failure: 'too-large' };
      chunks.push(chunk);
    }
  } catch {
    return { ok: false, failure: 'aborted' };
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks, size).toString('utf8')) };
  } catch {
    return { ok: false, failure: 'unparsable' };
  }
}
