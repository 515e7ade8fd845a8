import 'reflect-metadata';
import { jest } from '@jest/globals';
import { Injectable, Module } from '@nestjs/common';
import { ModulesContainer, NestFactory } from '@nestjs/core';
import { AsyncLocalStorage } from 'node:async_hooks';
import { McpModule } from '../mcp.module.js';
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

/** The scan at bootstrap: only an app provider that injects the service turns the async context on. */
describe('McpClientInput in an app', () => {
  @Injectable()
  class AskingPrompts {
    constructor(readonly input: McpClientInput) {}
  }

  @Injectable()
  class PlainTools {}

  async function contextRuns(provider: new (...args: never[]) => unknown): Promise<number> {
    @Module({ imports: [McpModule.forRoot({ name: 'scan', version: '1.0.0' })], providers: [provider] })
    class ScanModule {}
    const app = await NestFactory.createApplicationContext(ScanModule, { logger: false });
    const run = jest.spyOn(AsyncLocalStorage.prototype, 'run');
    try {
      await app.get(McpClientInput).runWith(round, () => Promise.resolve('done'));
      return run.mock.calls.length;
    } finally {
      run.mockRestore();
      await app.close();
    }
  }

  it('enters the async context (promise hooks on Node 20 and 22) only when a provider injects the service', async () => {
    expect(await contextRuns(AskingPrompts)).toBe(1);
    expect(await contextRuns(PlainTools)).toBe(0);
  });
});
