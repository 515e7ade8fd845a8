import { ModulesContainer } from '@nestjs/core';
import { McpClientInput, type McpInputDestination } from './mcp-client-input.service.js';
import { McpControlFlowSignal } from './control-flow.signal.js';

/** A round that answers every input request with `{ asked: method }`. */
const round: McpInputDestination = { ask: (method) => Promise.resolve({ asked: method }) };

/** A service in an app where no provider injects it (its bootstrap scan finds nothing). */
function lookedUp(): McpClientInput {
  const input = new McpClientInput(new ModulesContainer());
  input.onApplicationBootstrap();
  return input;
}

describe('McpClientInput', () => {
  it('refuses with CLIENT_UNREACHABLE outside any request', async () => {
    await expect(lookedUp().elicit({ message: 'x', requestedSchema: { type: 'object', properties: {} } })).rejects.toMatchObject({
      code: 'CLIENT_UNREACHABLE',
    });
  });

  it('reruns the request inside the context the first time a looked-up service is asked', async () => {
    const input = lookedUp();
    let runs = 0;
    const errors: unknown[] = [];
    const work = async () => {
      runs++;
      try {
        return await input.listRoots();
      } catch (error) {
        errors.push(error);
        return undefined;
      }
    };
    await expect(input.runWith(round, work)).resolves.toEqual({ asked: 'roots/list' });
    expect(runs).toBe(2);
    expect(errors).toEqual([expect.any(McpControlFlowSignal)]);
    // From now on the context is entered up front: one run.
    await expect(input.runWith(round, work)).resolves.toEqual({ asked: 'roots/list' });
    expect(runs).toBe(3);
  });

  it('runs a request that never asks once, and passes its failure through', async () => {
    const input = lookedUp();
    await expect(input.runWith(round, () => Promise.resolve('done'))).resolves.toBe('done');
    await expect(input.runWith(round, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(input.listRoots()).rejects.toMatchObject({ code: 'CLIENT_UNREACHABLE' });
  });
});
