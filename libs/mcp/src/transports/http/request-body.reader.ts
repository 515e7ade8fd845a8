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
  const raw = await readRaw(request, maxBytes);
  if (typeof raw === 'string') return { ok: false, failure: raw };
  try {
    return { ok: true, value: JSON.parse(raw.toString('utf8')) };
  } catch {
    return { ok: false, failure: 'unparsable' };
  }
}

/**
 * The body's bytes, read with plain listeners (cheaper per request than an async iterator), without a copy
 * when it arrives in one chunk; stops reading past `maxBytes`.
 */
function readRaw(request: Request, maxBytes: number): Promise<Buffer | 'too-large' | 'aborted'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: Buffer | 'too-large' | 'aborted') => {
      request.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) return finish('too-large');
      chunks.push(chunk);
    };
    const onEnd = () => finish(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    const onError = () => finish('aborted');
    const onClose = () => {
      if (!request.readableEnded) finish('aborted');
    };
    request.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}
