import type { IncomingMessage } from 'node:http';
import { parsedBodyOf } from './http-exchange.js';

/** A read body: the parsed JSON value, or why it could not be read (the HTTP layer maps each to a status). */
export type BodyReadResult = { ok: true; value: unknown } | { ok: false; failure: 'too-large' | 'unparsable' | 'aborted' };

/**
 * The parsed JSON body of a POST: an application-wide parser's result when one ran (still under a declared
 * `maxBytes`), else the stream read here under `maxBytes`, so `bodyParser: false` gets our limit and -32700 answers.
 */
export function readJsonBody(request: IncomingMessage, maxBytes: number): BodyReadResult | Promise<BodyReadResult> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return { ok: false, failure: 'too-large' };
  // Empty is not JSON, whatever an application-wide parser made of it (express's gives `{}`).
  if (declared === 0) return { ok: false, failure: 'unparsable' };
  if (request.readableEnded) {
    const parsed = parsedBodyOf(request);
    // An app-wide parser (express's) keeps `__proto__` keys the stream reader and Fastify refuse: the same refusal.
    return parsed === undefined || holdsPoisoningKey(parsed) ? { ok: false, failure: 'unparsable' } : { ok: true, value: parsed };
  }
  return readStreamed(request, maxBytes);
}

/** Reads and parses the body from the stream (the only asynchronous path: an already parsed body needs no tick). */
async function readStreamed(request: IncomingMessage, maxBytes: number): Promise<BodyReadResult> {
  const raw = await readRaw(request, maxBytes);
  if (typeof raw === 'string') return { ok: false, failure: raw };
  try {
    const text = raw.toString('utf8');
    // Fastify refuses prototype-poisoning keys; so do we. Only a body that may hold one takes the reviver, which sees
    // decoded keys: a `\u` escape can spell either (`"\u005f_proto__"`).
    const suspicious = text.includes('__proto__') || text.includes('constructor') || text.includes('\\u');
    return { ok: true, value: suspicious ? JSON.parse(text, refusePrototypePoisoning) : JSON.parse(text) };
  } catch {
    return { ok: false, failure: 'unparsable' };
  }
}

/** A JSON.parse reviver that throws on an own `__proto__` key or a `constructor` object holding `prototype`. */
function refusePrototypePoisoning(key: string, value: unknown): unknown {
  if (key === '__proto__') throw new SyntaxError('forbidden key __proto__');
  if (key === 'constructor' && typeof value === 'object' && value !== null && Object.hasOwn(value, 'prototype')) {
    throw new SyntaxError('forbidden key constructor.prototype');
  }
  return value;
}

/** Whether a parsed value holds, at any depth, what {@link refusePrototypePoisoning} refuses while parsing. */
function holdsPoisoningKey(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current !== 'object' || current === null) continue;
    if (Array.isArray(current)) {
      pending.push(...current);
      continue;
    }
    for (const key of Object.keys(current)) {
      const child = (current as Record<string, unknown>)[key];
      if (key === '__proto__') return true;
      if (key === 'constructor' && typeof child === 'object' && child !== null && Object.hasOwn(child, 'prototype')) return true;
      pending.push(child);
    }
  }
  return false;
}

/** The body's bytes, with plain listeners (cheaper than an async iterator), not copied when in one chunk; stops past `maxBytes`. */
export function readRaw(request: IncomingMessage, maxBytes: number): Promise<Buffer | 'too-large' | 'aborted'> {
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
