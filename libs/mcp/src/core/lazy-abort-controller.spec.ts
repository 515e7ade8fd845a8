import { LazyAbortController } from './lazy-abort-controller.js';

class Reason extends Error {}

describe('LazyAbortController', () => {
  it('hands out one signal, which aborts with the reason given', () => {
    const controller = new LazyAbortController();
    const signal = controller.signal;
    const seen: unknown[] = [];
    signal.addEventListener('abort', () => seen.push(signal.reason));
    expect(controller.signal).toBe(signal);
    expect(signal.aborted).toBe(false);
    const reason = new Reason('stop');
    controller.abort(reason);
    expect(signal.aborted).toBe(true);
    expect(seen).toEqual([reason]);
    expect(controller.abortedWith(Reason)).toBe(true);
    expect(controller.abortedWith(TypeError)).toBe(false);
  });

  it('aborted before its signal was read, the signal it then gives is already aborted', () => {
    const controller = new LazyAbortController();
    controller.abort(new Reason('early'));
    expect(controller.signal.aborted).toBe(true);
    expect(controller.signal.reason).toBeInstanceOf(Reason);
    expect(controller.abortedWith(Reason)).toBe(true);
  });

  it('never used, it was never aborted', () => {
    expect(new LazyAbortController().abortedWith(Reason)).toBe(false);
  });
});
