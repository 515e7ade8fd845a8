import { resolveMcpOptions, resolvePaths } from '../options/mcp-options.resolver.js';
import { envelopeToCallToolResult } from '../core/results/mcp-result.js';
import { McpInFlightCalls } from './in-flight-calls.js';

const calls = (graceMs: number) =>
  new McpInFlightCalls(resolveMcpOptions({ name: 'calls', version: '1.0.0', shutdown: { graceMs } }, resolvePaths({})));
const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(resolve, ms, value));
const ok = envelopeToCallToolResult({ status: 'success', data: 'done' });

describe('McpInFlightCalls (shutdown bounds the tool calls running here)', () => {
  it('lets a call that ends within shutdown.graceMs answer as usual', async () => {
    const inFlight = calls(2_000);
    const controller = new AbortController();
    const call = inFlight.run(controller, () => after(50, ok));
    await inFlight.beforeApplicationShutdown();
    expect(await call).toBe(ok);
    expect(controller.signal.aborted).toBe(false);
  });

  it('answers a call still running after the grace with a retryable UNAVAILABLE, and aborts its signal', async () => {
    const inFlight = calls(50);
    const controller = new AbortController();
    // A handler that never ends (ignores its signal).
    const call = inFlight.run(controller, () => new Promise(() => undefined));
    await inFlight.beforeApplicationShutdown();
    expect((await call).structuredContent).toMatchObject({ status: 'error', error: { code: 'UNAVAILABLE', retryable: true } });
    expect(controller.signal.aborted).toBe(true);
  });

  it('returns at once when nothing runs', async () => {
    await expect(calls(60_000).beforeApplicationShutdown()).resolves.toBeUndefined();
  });
});
