import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { JsonRpcMessage } from '../../core/json-rpc/json-rpc.types.js';
import { McpMemoryStore } from '../../stores/memory.store.js';
import { storeKey } from '../../stores/store-key.js';
import { eventId, sequenceOf, SseEventStore, type StoredSseEvent } from './sse-event.store.js';

const message = (n: number): JsonRpcMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 't', progress: n },
});
const event = (streamId: string, sequence: number): StoredSseEvent => ({ id: eventId(streamId, sequence), message: message(sequence) });

function makeStore(maxEventsPerStream = 1000, maxEventBytesPerStream = 4 * 1024 * 1024) {
  const memory = new McpMemoryStore(1000, 60_000);
  const options = {
    sessions: { mode: 'optional', idleTtlMs: 60_000 },
    http: { streams: { keepAliveMs: 15_000, maxEventsPerStream, maxEventBytesPerStream, retryMs: 1000 } },
  } as McpResolvedOptions;
  return { memory, events: new SseEventStore(memory, options) };
}

describe('eventId', () => {
  it('is <streamId>.<sequence>', () => {
    expect(eventId('abc', 3)).toBe('abc.3');
    expect(eventId('s.with.dots', 12)).toBe('s.with.dots.12');
  });
});

describe('SseEventStore', () => {
  let memory: McpMemoryStore;
  let events: SseEventStore;

  beforeEach(() => {
    ({ memory, events } = makeStore());
  });

  afterEach(async () => {
    await memory.close();
  });

  it('replays the events after the given id, in order', async () => {
    for (let sequence = 1; sequence <= 4; sequence++) await events.append('session-1', 'stream-a', event('stream-a', sequence));
    expect(await events.after('session-1', 'stream-a.2')).toEqual({
      streamId: 'stream-a',
      events: [event('stream-a', 3), event('stream-a', 4)],
      ended: false,
    });
  });

  it('replays nothing after the last event (but knows the stream)', async () => {
    await events.append('session-1', 'stream-a', event('stream-a', 1));
    expect(await events.after('session-1', 'stream-a.1')).toEqual({ streamId: 'stream-a', events: [], ended: false });
  });

  it('stream ids may contain dots', async () => {
    await events.append('session-1', 'a.b', event('a.b', 1));
    await events.append('session-1', 'a.b', event('a.b', 2));
    expect(await events.after('session-1', 'a.b.1')).toEqual({ streamId: 'a.b', events: [event('a.b', 2)], ended: false });
  });

  it('keeps streams of one session apart', async () => {
    await events.append('session-1', 'stream-a', event('stream-a', 1));
    await events.append('session-1', 'stream-b', event('stream-b', 1));
    await events.append('session-1', 'stream-a', event('stream-a', 2));
    expect(await events.after('session-1', 'stream-a.1')).toEqual({ streamId: 'stream-a', events: [event('stream-a', 2)], ended: false });
    expect(await events.after('session-1', 'stream-b.1')).toEqual({ streamId: 'stream-b', events: [], ended: false });
  });

  it.each([
    ['an unknown sequence of a known stream', 'stream-a.99'],
    ['an unknown stream', 'stream-z.1'],
    ['an id without a dot', 'streama1'],
    ['an id starting with a dot', '.1'],
    ['the empty string', ''],
  ])('returns undefined for %s', async (_label, lastEventId) => {
    await events.append('session-1', 'stream-a', event('stream-a', 1));
    expect(await events.after('session-1', lastEventId)).toBeUndefined();
  });

  it('never returns the events of another session, even with a valid event id', async () => {
    await events.append('session-1', 'stream-a', event('stream-a', 1));
    await events.append('session-1', 'stream-a', event('stream-a', 2));
    expect(await events.after('session-2', 'stream-a.1')).toBeUndefined();
    // The other session's own stream of the same id is separate.
    await events.append('session-2', 'stream-a', { id: 'stream-a.1', message: message(100) });
    expect(await events.after('session-2', 'stream-a.1')).toEqual({ streamId: 'stream-a', events: [], ended: false });
    expect(await events.after('session-1', 'stream-a.1')).toEqual({ streamId: 'stream-a', events: [event('stream-a', 2)], ended: false });
  });

  it('bounds each stream to maxEventsPerStream: an evicted id is unknown', async () => {
    ({ memory, events } = makeStore(2));
    for (let sequence = 1; sequence <= 3; sequence++) await events.append('s', 'st', event('st', sequence));
    expect(await events.after('s', 'st.1')).toBeUndefined();
    expect(await events.after('s', 'st.2')).toEqual({ streamId: 'st', events: [event('st', 3)], ended: false });
  });

  it('bounds each stream to maxEventBytesPerStream too: the oldest go first, and a dropped id is unknown', async () => {
    const size = JSON.stringify(event('st', 1)).length;
    ({ memory, events } = makeStore(1000, 3 * size));
    for (let sequence = 1; sequence <= 5; sequence++) await events.append('s', 'st', event('st', sequence));
    expect(await events.after('s', 'st.2')).toBeUndefined();
    expect(await events.after('s', 'st.3')).toEqual({ streamId: 'st', events: [event('st', 4), event('st', 5)], ended: false });
  });

  it('keeps a stand-in for an event too large to keep: a resume from it continues after it, one from before it is unknown', async () => {
    const size = JSON.stringify(event('st', 1)).length;
    ({ memory, events } = makeStore(1000, 3 * size));
    const huge: StoredSseEvent = {
      id: eventId('st', 2),
      message: { ...message(2), params: { progressToken: 't', progress: 2, message: 'x'.repeat(10 * size) } },
    };
    await events.append('s', 'st', event('st', 1));
    await events.append('s', 'st', huge);
    await events.append('s', 'st', event('st', 3));
    await events.append('s', 'st', { id: eventId('st', 4), message: null, end: true });
    // The stand-in is small: the event before it is still kept, but replaying from there would skip the large one.
    expect(await memory.list(storeKey('events', 's', 'st'))).toEqual([
      event('st', 1),
      { id: 'st.2', message: null, tooLarge: true },
      event('st', 3),
      { id: 'st.4', message: null, end: true },
    ]);
    expect(await events.after('s', 'st.1')).toBeUndefined();
    expect(await events.after('s', 'st.2')).toEqual({ streamId: 'st', events: [event('st', 3)], ended: true });
  });

  it('says a stream ended once its end marker is stored after the position (the marker itself is not replayed)', async () => {
    await events.append('s', 'st', event('st', 1));
    await events.append('s', 'st', event('st', 2));
    expect(await events.after('s', 'st.1')).toEqual({ streamId: 'st', events: [event('st', 2)], ended: false });
    await events.append('s', 'st', { id: eventId('st', 3), message: null, end: true });
    expect(await events.after('s', 'st.1')).toEqual({ streamId: 'st', events: [event('st', 2)], ended: true });
  });
});

describe('sequenceOf', () => {
  it('reads the sequence after the last dot', () => {
    expect(sequenceOf(eventId('a.b', 7))).toBe(7);
    expect(sequenceOf('nodot')).toBeNaN();
  });
});
