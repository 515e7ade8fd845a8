/** A body larger than the bound: reading stopped there. */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`The body exceeds ${limit} bytes`);
  }
}

/**
 * The body of a fetch response as text, read until `limit` bytes and no further: a `Content-Length` above it is
 * refused before reading, and a stream that passes it is cancelled, so memory stays bounded whatever the server sends.
 */
export async function readBoundedText(response: Response, limit: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw new BodyTooLargeError(limit);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
