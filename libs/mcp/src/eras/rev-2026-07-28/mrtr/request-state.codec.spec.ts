import { Logger } from '@nestjs/common';
import { jest } from '@jest/globals';
import type { McpResolvedOptions } from '../../../options/mcp-module-options.interface.js';
import { digestOf, McpRequestStateCodec, type McpRequestState } from './request-state.codec.js';

const options = (secret: string | undefined, ttlMs = 60_000, redis?: object) =>
  ({ requestState: { secret, ttlMs }, redis }) as unknown as McpResolvedOptions;
const state: McpRequestState = {
  owner: 'anonymous',
  method: 'tools/call',
  digest: digestOf({ name: 't', arguments: {} }),
  round: 2,
  answers: { 'elicit-1': { action: 'accept' } },
};

describe('McpRequestStateCodec (HMAC-protected requestState)', () => {
  const codec = new McpRequestStateCodec(options('k'.repeat(32)));

  it('opens what it sealed, and seals each round differently', () => {
    const sealed = codec.seal(state);
    expect(codec.open(sealed)).toEqual(state);
    expect(codec.seal(state)).not.toBe(sealed);
  });

  it('refuses a tampered, truncated, foreign or expired state', () => {
    const sealed = codec.seal(state);
    expect(codec.open(`${sealed}-TAMPERED`)).toBeUndefined();
    expect(codec.open(sealed.slice(0, -2))).toBeUndefined();
    const [version, body, mac] = sealed.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), owner: 'someone' })).toString(
      'base64url',
    );
    expect(codec.open(`${version}.${forged}.${mac}`)).toBeUndefined();
    expect(new McpRequestStateCodec(options('z'.repeat(32))).open(sealed)).toBeUndefined();
    expect(codec.open(codec.seal(state, Date.now() - 120_000))).toBeUndefined();
    for (const junk of [undefined, 42, '', 'v1.', 'v1.e30.', '..']) expect(codec.open(junk)).toBeUndefined();
  });

  it('uses a random key when none is configured (states do not survive another instance)', () => {
    const a = new McpRequestStateCodec(options(undefined));
    const b = new McpRequestStateCodec(options(undefined));
    expect(a.open(a.seal(state))).toEqual(state);
    expect(b.open(a.seal(state))).toBeUndefined();
  });

  it('warns of the random key only where instances share one URL (redis set): alone, nothing depends on it', () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      new McpRequestStateCodec(options(undefined));
      expect(warn).not.toHaveBeenCalled();
      new McpRequestStateCodec(options(undefined, 60_000, { url: 'redis://127.0.0.1:6379' }));
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0][0])).toContain('requestState.secret');
    } finally {
      warn.mockRestore();
    }
  });

  it('digests params independently of key order', () => {
    expect(digestOf({ name: 't', arguments: { a: 1, b: [1, { c: 2, d: 3 }] } })).toBe(
      digestOf({ arguments: { b: [1, { d: 3, c: 2 }], a: 1 }, name: 't' }),
    );
    expect(digestOf({ name: 't', arguments: { a: 1 } })).not.toBe(digestOf({ name: 't', arguments: { a: 2 } }));
  });
});
