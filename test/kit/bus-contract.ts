import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { McpMessageBus } from '../../libs/mcp/src/core/message-bus.interface.js';
import { eventually } from './eventually.js';

/** A bus, a second instance connected to the same place (`peer`; the same object in memory), and disposal. */
export type BusFactory = () => Promise<{ bus: McpMessageBus; peer: McpMessageBus; cleanup: () => Promise<void> }>;

/** The behaviour every `McpMessageBus` must have, run against each implementation. */
export function describeBusContract(name: string, createBuses: BusFactory): void {
  describe(`${name} (McpMessageBus contract)`, () => {
    let bus: McpMessageBus;
    let peer: McpMessageBus;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      ({ bus, peer, cleanup } = await createBuses());
    });

    afterEach(async () => {
      jest.restoreAllMocks();
      await cleanup();
    });

    /** A handler that records what it gets. */
    function recorder(): { handler: (message: unknown) => void; received: unknown[] } {
      const received: unknown[] = [];
      return { handler: (message) => received.push(message), received };
    }

    it('delivers a published message to a subscriber, as a JSON copy', async () => {
      const { handler, received } = recorder();
      await bus.subscribe('ch', handler);
      const message = {
        id: 1,
        nested: { list: [1, 'two', null, { deep: true }] },
        at: new Date('2025-01-02T00:00:00.000Z'),
        gone: undefined,
      };
      await bus.publish('ch', message);
      await eventually(() => received.length === 1, 5_000, 'delivery');
      expect(received[0]).toEqual({ id: 1, nested: { list: [1, 'two', null, { deep: true }] }, at: '2025-01-02T00:00:00.000Z' });
      expect(received[0]).not.toBe(message);
    });

    it('reaches a subscriber of another instance (instance B to the stream on instance A)', async () => {
      const { handler, received } = recorder();
      await bus.subscribe('stream:abc', handler);
      await peer.publish('stream:abc', { jsonrpc: '2.0', method: 'notifications/progress' });
      await eventually(() => received.length === 1, 5_000, 'delivery');
      expect(received).toEqual([{ jsonrpc: '2.0', method: 'notifications/progress' }]);
    });

    it('never delivers inside publish()', async () => {
      const { handler, received } = recorder();
      await bus.subscribe('ch', handler);
      const publishing = bus.publish('ch', 'x');
      expect(received).toEqual([]);
      await publishing;
      await eventually(() => received.length === 1, 5_000, 'delivery');
    });

    it('gives every message to each of two subscribers, in publish order', async () => {
      const first = recorder();
      const second = recorder();
      await bus.subscribe('ch', first.handler);
      await peer.subscribe('ch', second.handler);
      for (const value of [1, 2, 3]) await bus.publish('ch', value);
      await eventually(() => first.received.length === 3 && second.received.length === 3, 5_000, 'delivery');
      expect(first.received).toEqual([1, 2, 3]);
      expect(second.received).toEqual([1, 2, 3]);
    });

    it('the same function subscribed twice gets each message twice, and one unsubscribe leaves the other', async () => {
      const { handler, received } = recorder();
      const unsubscribe = await bus.subscribe('ch', handler);
      await bus.subscribe('ch', handler);
      await bus.publish('ch', 'a');
      await eventually(() => received.length === 2, 5_000, 'delivery');
      await unsubscribe();
      await bus.publish('ch', 'b');
      await eventually(() => received.length === 3, 5_000, 'delivery');
      expect(received).toEqual(['a', 'a', 'b']);
    });

    it('stops delivering after unsubscribe (a later message on a live channel proves nothing else came)', async () => {
      const gone = recorder();
      const sentinel = recorder();
      const unsubscribe = await bus.subscribe('ch', gone.handler);
      await bus.subscribe('sentinel', sentinel.handler);
      await unsubscribe();
      await unsubscribe(); // twice is harmless
      await bus.publish('ch', 'lost');
      await bus.publish('sentinel', 'done');
      await eventually(() => sentinel.received.length === 1, 5_000, 'sentinel');
      expect(gone.received).toEqual([]);
    });

    it('subscribing again right after the last unsubscribe works (no unsubscribe overtakes the new subscribe)', async () => {
      const first = recorder();
      const second = recorder();
      const unsubscribe = await bus.subscribe('ch', first.handler);
      const unsubscribing = unsubscribe();
      await bus.subscribe('ch', second.handler);
      await unsubscribing;
      await bus.publish('ch', 'x');
      await eventually(() => second.received.length === 1, 5_000, 'delivery');
      expect(first.received).toEqual([]);
    });

    it('keeps channels apart', async () => {
      const a = recorder();
      const b = recorder();
      await bus.subscribe('a', a.handler);
      await bus.subscribe('b', b.handler);
      await peer.publish('a', 'for a');
      await peer.publish('b', 'for b');
      await eventually(() => a.received.length === 1 && b.received.length === 1, 5_000, 'delivery');
      expect(a.received).toEqual(['for a']);
      expect(b.received).toEqual(['for b']);
    });

    it('publishing to a channel nobody listens to is fine, and says it reached nobody (0) when the bus can tell', async () => {
      expect([0, undefined]).toContain(await bus.publish('nobody', { x: 1 }));
    });

    it('says a message reached somebody (a positive count) when the bus can tell', async () => {
      await bus.subscribe('ch', () => undefined);
      const receivers = await peer.publish('ch', 'x');
      if (receivers !== undefined) expect(receivers).toBeGreaterThan(0);
    });

    it('refuses a message JSON cannot hold', async () => {
      await expect(bus.publish('ch', undefined)).rejects.toThrow(TypeError);
    });

    it('a handler that throws does not keep the message from the others', async () => {
      const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
      const { handler, received } = recorder();
      await bus.subscribe('ch', () => {
        throw new Error('handler bug');
      });
      await bus.subscribe('ch', handler);
      await bus.publish('ch', 'x');
      await eventually(() => received.length === 1 && logged.mock.calls.length === 1, 5_000, 'delivery');
      expect(String(logged.mock.calls[0][0])).toContain('"ch"');
    });
  });
}
