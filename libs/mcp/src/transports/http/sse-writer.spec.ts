import { RecordingResponse } from '../../../../../test/kit/recording-response.js';
import { SseWriter } from './sse-writer.js';

function writerOver(maxBufferedBytes: number) {
  // A reader that stopped reading: past 16 bytes every write reports backpressure.
  const response = new RecordingResponse({ stalledAbove: 16 });
  const cuts = { count: 0 };
  const writer = new SseWriter(response.asServerResponse, { maxBufferedBytes, onCut: () => cuts.count++ });
  return { response, cuts, writer };
}

describe('SseWriter byte budget', () => {
  it('writes while what waits unflushed is within the budget', () => {
    const { response, cuts, writer } = writerOver(100);
    writer.event('a'.repeat(40));
    writer.event('b'.repeat(40));
    expect(response.frames).toHaveLength(2);
    expect(cuts.count).toBe(0);
  });

  it('lets one frame larger than the budget through to a reader that keeps up', () => {
    const { response, cuts, writer } = writerOver(10);
    writer.event('x'.repeat(1_000));
    expect(response.frames).toHaveLength(1);
    response.flush();
    writer.event('y');
    expect(response.frames).toHaveLength(2);
    expect(cuts.count).toBe(0);
  });

  it('cuts a reader over the budget once: destroys the connection, drops the frame, reports once', () => {
    const { response, cuts, writer } = writerOver(100);
    writer.event('a'.repeat(200));
    expect(writer.event('b')).toBe(false);
    expect(writer.event('c')).toBe(false);
    writer.comment('keepalive');
    expect(response.destroyed).toBe(true);
    expect(response.frames).toHaveLength(1);
    expect(writer.closed).toBe(true);
    expect(cuts.count).toBe(1);
  });

  it('cuts a stalled reader at the next keep-alive', () => {
    const { response, cuts, writer } = writerOver(100);
    writer.event('a'.repeat(200));
    writer.comment('keepalive');
    expect(response.destroyed).toBe(true);
    expect(cuts.count).toBe(1);
  });

  it('drained() resolves on drain, on close, or at once when nothing waits', async () => {
    const { response, writer } = writerOver(1_000);
    await writer.drained();
    writer.event('a'.repeat(100));
    let resolved = false;
    const waiting = writer.drained().then(() => (resolved = true));
    await Promise.resolve();
    expect(resolved).toBe(false);
    response.flush();
    await waiting;
    writer.event('b'.repeat(100));
    const closing = writer.drained();
    response.destroy();
    await closing;
  });
});
