import { LazyAbortController } from '../core/lazy-abort-controller.js';
import type { McpRequestContext } from '../core/mcp-request-context.interface.js';
import { createToolContext } from './tool-context.factory.js';

const request: McpRequestContext = { transport: 'http', protocolVersion: '2025-11-25' };

describe('createToolContext signal', () => {
  it('reads the signal from `signalOf` only when the tool looks at it, and sees its abort', () => {
    let reads = 0;
    const controller = new LazyAbortController();
    const source = {
      get signal() {
        reads++;
        return controller.signal;
      },
    };
    const { context } = createToolContext({ requestId: 1, toolName: 't', progressToken: undefined, request, signalOf: source });
    expect(reads).toBe(0);
    expect(context.signal.aborted).toBe(false);
    controller.abort(new Error('cancelled'));
    expect(context.signal.aborted).toBe(true);
    expect(context.signal).toBe(controller.signal);
  });

  it('keeps `signal` an enumerable property: spread and destructuring carry the real signal', () => {
    const controller = new AbortController();
    const { context } = createToolContext({ requestId: 1, toolName: 't', progressToken: undefined, request, signal: controller.signal });
    const { signal } = context;
    expect(signal).toBe(controller.signal);
    expect({ ...context }.signal).toBe(controller.signal);
    expect(Object.keys(context)).toContain('signal');
  });
});
