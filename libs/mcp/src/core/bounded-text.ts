/** A body larger than its bound: reading stopped there. */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`The body exceeds ${limit} bytes`);
  }
}

/**
 * A body (a fetch response's or a node:http one's) as UTF-8 text, read until `limit` bytes and no further: a declared
 * `Content-Length` above it is refused before reading, and a stream that passes it is ended (leaving the loop cancels a
 * fetch body and destroys a node:http one), so memory stays bounded whatever the other side sends.
 */
export async function readBoundedText(
  body: AsyncIterable<Uint8Array> | null | undefined,
  limit: number,
  declaredLength?: string | null,
): Promise<string> {
  if (!body) return '';
  const declared = Number(declaredLength ?? undefined);
  if (Number.isFinite(declared) && declared > limit) {
    await body[Symbol.asyncIterator]().return?.();
    throw new BodyTooLargeError(limit);
  }
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > limit) throw new BodyTooLargeError(limit);
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}
