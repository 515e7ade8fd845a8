import { withMcpInputKey } from '../../../core/input-key.js';
import { McpMissingClientCapabilitySignal } from '../../../core/missing-client-capability.signal.js';
import { McpInputRequiredSignal } from './input-required.signal.js';
import { McpInputRound } from './input-round.js';

const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

describe('McpInputRound (one run of a multi round-trip handler)', () => {
  it('records unanswered requests by call order, interrupts once, and stops the handler', async () => {
    let interrupts = 0;
    const round = new McpInputRound({ capabilities: { elicitation: {}, sampling: {}, roots: {} }, onInputRequired: () => interrupts++ });
    const asked = await Promise.allSettled([
      round.ask('elicitation/create', { message: 'Name?' }),
      round.ask('sampling/createMessage', withMcpInputKey('greeting', { messages: [], maxTokens: 5 })),
      round.ask('roots/list', {}),
    ]);
    expect(asked.every((outcome) => outcome.status === 'rejected' && outcome.reason instanceof McpInputRequiredSignal)).toBe(true);
    expect([...round.asked.keys()]).toEqual(['elicit-1', 'greeting', 'roots-3']);
    expect(round.asked.get('elicit-1')).toEqual({ method: 'elicitation/create', params: { message: 'Name?' } });
    expect(interrupts).toBe(1);
  });

  it('answers from earlier rounds and from this request, remembering what it used', async () => {
    const round = new McpInputRound({
      capabilities: { elicitation: {} },
      known: { 'elicit-1': accept({ name: 'Ada' }) },
      responses: { 'elicit-2': accept({ color: 'red' }), extra: 1 },
    });
    await expect(round.ask('elicitation/create', { message: 'Name?' })).resolves.toEqual(accept({ name: 'Ada' }));
    await expect(round.ask('elicitation/create', { message: 'Color?' })).resolves.toEqual(accept({ color: 'red' }));
    expect(round.used).toEqual({ 'elicit-1': accept({ name: 'Ada' }), 'elicit-2': accept({ color: 'red' }) });
    expect(round.asked.size).toBe(0);
  });

  it('flags an answer of the wrong shape instead of handing it to the handler', async () => {
    const round = new McpInputRound({ capabilities: { elicitation: {} }, responses: { user: 12345 } });
    await expect(round.ask('elicitation/create', withMcpInputKey('user', { message: 'Name?' }))).rejects.toBeInstanceOf(
      McpInputRequiredSignal,
    );
    expect(round.invalidKey).toBe('user');
  });

  it('refuses what the request did not declare, naming the capability (URL mode and sampling tools included)', async () => {
    const round = new McpInputRound({ capabilities: { elicitation: { form: {} }, sampling: {} } });
    await expect(round.ask('elicitation/create', { mode: 'url', message: 'Open', url: 'https://x' })).rejects.toBeInstanceOf(
      McpMissingClientCapabilitySignal,
    );
    await expect(round.ask('sampling/createMessage', { messages: [], maxTokens: 1, tools: [] })).rejects.toBeInstanceOf(
      McpMissingClientCapabilitySignal,
    );
    await expect(round.ask('roots/list', {})).rejects.toBeInstanceOf(McpMissingClientCapabilitySignal);
    expect(round.missing).toEqual({ elicitation: { url: {} }, sampling: { tools: {} }, roots: {} });
    expect(round.asked.size).toBe(0);
  });

  it('hands unanswered requests to a delegate once one is set (a running task)', async () => {
    const round = new McpInputRound({ capabilities: { elicitation: {} } });
    round.delegate = async (key, request) => ({ action: 'accept', content: { key, message: request.params.message } });
    await expect(round.ask('elicitation/create', { message: 'Sure?' })).resolves.toEqual({
      action: 'accept',
      content: { key: 'elicit-1', message: 'Sure?' },
    });
  });
});
