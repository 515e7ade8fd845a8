import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { McpElicitationRequest, McpElicitationResult, McpSamplingRequest, McpSamplingResult } from './mcp-tool-context.interface.js';
import { McpToolError } from './errors/mcp-tool.error.js';
import { McpControlFlowSignal } from './control-flow.signal.js';

/** The first out-of-context use of an app that never injects the service: the request reruns inside the context. */
class McpClientInputFound extends McpControlFlowSignal {}

/** Where one request's input requests go: the 2026-07-28 era's input round (`McpInputRound`). */
export interface McpInputDestination {
  ask(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/**
 * Input requests from prompt and resource handlers in 2026-07-28 requests (`prompts/get`, `resources/read`),
 * whose contexts have no `elicit()`: they work like a tool's `context.elicit()`, `sample()` and `listRoots()`
 * (an `input_required` round, then the handler runs again with the answer). Outside such a request they throw.
 * Tools keep using their context.
 * @publicApi
 * @example
 * constructor(private readonly input: McpClientInput) {}
 * @McpPrompt({ description: 'Summarises a topic the user picks' })
 * async summary() {
 *   const answer = await this.input.elicit({ message: 'Which topic?', requestedSchema: TOPIC_SCHEMA });
 *   return `Summarise ${answer.content?.topic}`;
 * }
 */
@Injectable()
export class McpClientInput implements OnApplicationBootstrap {
  private readonly rounds = new AsyncLocalStorage<McpInputDestination>();
  /**
   * Whether a provider or controller of the app injects this service. Only then do requests run inside the async
   * context: on Node 20 and 22 the first `AsyncLocalStorage.run` turns on promise hooks for the whole process, about
   * a tenth of a 2026-07-28 call's cost, paid by every request for a service most apps never use.
   */
  private injected = false;
  /** Requests running outside the context now (while nothing is known to use the service). */
  private outside = 0;

  constructor(private readonly modules: ModulesContainer) {}

  /** Reads Nest's record of resolved dependencies; the library's own modules (those providing this service) do not count. */
  onApplicationBootstrap(): void {
    this.injected = [...this.modules.values()].some(
      (module) =>
        !module.providers.has(McpClientInput) &&
        [...module.providers.values(), ...module.controllers.values()].some((wrapper) =>
          [...(wrapper.getCtorMetadata() ?? []), ...(wrapper.getPropertiesMetadata() ?? []).map((property) => property.wrapper)].some(
            (dependency) => dependency?.token === McpClientInput,
          ),
        ),
    );
  }

  elicit(params: McpElicitationRequest): Promise<McpElicitationResult> {
    return this.ask('elicitation/create', params) as Promise<McpElicitationResult>;
  }

  sample(params: McpSamplingRequest): Promise<McpSamplingResult> {
    return this.ask('sampling/createMessage', params) as Promise<McpSamplingResult>;
  }

  listRoots(): Promise<{ roots: { uri: string; name?: string }[] }> {
    return this.ask('roots/list', {}) as Promise<{ roots: { uri: string; name?: string }[] }>;
  }

  /**
   * Runs `work` (one request's dispatch) with `round` as the destination of these input requests.
   * @internal
   */
  runWith<T>(round: McpInputDestination, work: () => Promise<T>): Promise<T> {
    if (this.injected) return this.rounds.run(round, work);
    this.outside++;
    return work().then(
      (answer) => {
        this.outside--;
        // The handler reached the service another way (a ModuleRef lookup) and got no context: this run answered
        // nothing yet (its input request stopped it), so it runs again, as every input round reruns it anyway.
        return this.injected ? this.rounds.run(round, work) : answer;
      },
      (error: unknown) => {
        this.outside--;
        throw error;
      },
    );
  }

  private async ask(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const round = this.rounds.getStore();
    if (!round && !this.injected) {
      // Reached without being injected (looked up through a ModuleRef): later requests carry the context, and the
      // requests running now rerun in it. Outside any request (at boot, a 2025-11-25 handler) it fails as below.
      this.injected = true;
      if (this.outside > 0)
        throw new McpClientInputFound(`${method} reached McpClientInput outside its context; the request reruns inside it`);
    }
    if (!round)
      throw new McpToolError(
        'CLIENT_UNREACHABLE',
        `${method} is only available to handlers serving a 2026-07-28 tools/call, prompts/get or resources/read`,
      );
    return round.ask(method, params);
  }
}
