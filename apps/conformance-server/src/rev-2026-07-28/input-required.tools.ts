import { Injectable } from '@nestjs/common';
import {
  McpClientInput,
  McpContent,
  McpContext,
  McpMissingClientCapabilitySignal,
  McpPrompt,
  McpResult,
  McpTool,
  withMcpInputKey,
  type McpToolContext,
} from '@nest-mcp/core';

const text = (value: string) => McpResult.raw({ content: [McpContent.text(value)] });
const nameQuestion = (message: string) => ({
  message,
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
});
const nameOf = (answer: { action: string; content?: Record<string, unknown> }) =>
  answer.action === 'accept' ? String(answer.content?.name ?? 'stranger') : 'stranger';

/**
 * The `input-required-result-*` fixtures (2026-07-28 multi round-trip requests). They are ordinary handlers
 * calling `context.elicit()`, `sample()` and `listRoots()`: the library turns each missing answer into an
 * `input_required` round and re-runs the handler with the answers.
 */
@Injectable()
export class InputRequiredTools {
  constructor(private readonly input: McpClientInput) {}

  @McpTool({ name: 'test_input_required_result_elicitation', description: 'Asks for your name (one elicitation), then greets you' })
  async elicitation(@McpContext() context: McpToolContext) {
    return text(`Hello, ${nameOf(await context.elicit(withMcpInputKey('user_name', nameQuestion('What is your name?'))))}!`);
  }

  @McpTool({ name: 'test_input_required_result_sampling', description: "Asks the client's model for the capital of France" })
  async sampling(@McpContext() context: McpToolContext) {
    const answer = await context.sample(
      withMcpInputKey('capital_question', {
        messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
        maxTokens: 100,
      }),
    );
    return text(`Model answered: ${JSON.stringify(answer.content)}`);
  }

  @McpTool({ name: 'test_input_required_result_list_roots', description: "Lists the client's roots" })
  async listRoots(@McpContext() context: McpToolContext) {
    const { roots } = await context.listRoots();
    return text(`Roots: ${roots.map((root) => root.uri).join(', ')}`);
  }

  @McpTool({
    name: 'test_input_required_result_request_state',
    description: 'Asks for a confirmation carried across rounds by requestState',
  })
  async requestState(@McpContext() context: McpToolContext) {
    const answer = await context.elicit(
      withMcpInputKey('confirm', {
        message: 'Please confirm',
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      }),
    );
    return text(`state-ok: confirmed=${answer.action === 'accept' && answer.content?.ok === true}`);
  }

  @McpTool({ name: 'test_input_required_result_multiple_inputs', description: 'Asks for a name, a greeting and the roots at once' })
  async multipleInputs(@McpContext() context: McpToolContext) {
    const [name, greeting, roots] = await Promise.all([
      context.elicit(withMcpInputKey('user_name', nameQuestion('What is your name?'))),
      context.sample(
        withMcpInputKey('greeting', {
          messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }],
          maxTokens: 50,
        }),
      ),
      context.listRoots(),
    ]);
    return text(`${JSON.stringify(greeting.content)} ${nameOf(name)} (${roots.roots.length} roots)`);
  }

  @McpTool({ name: 'test_input_required_result_multi_round', description: 'Asks for a name, then for a favourite color (two rounds)' })
  async multiRound(@McpContext() context: McpToolContext) {
    const name = nameOf(await context.elicit(withMcpInputKey('step1', nameQuestion('Step 1: What is your name?'))));
    const color = await context.elicit(
      withMcpInputKey('step2', {
        message: 'Step 2: What is your favorite color?',
        requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
      }),
    );
    return text(`${name} likes ${String(color.content?.color ?? 'nothing')}`);
  }

  @McpTool({
    name: 'test_input_required_result_tampered_state',
    description: 'Asks for a confirmation; a tampered requestState is refused',
  })
  async tamperedState(@McpContext() context: McpToolContext) {
    const answer = await context.elicit(
      withMcpInputKey('confirm', {
        message: 'Please confirm',
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      }),
    );
    return text(`Confirmed: ${answer.action}`);
  }

  @McpTool({
    name: 'test_input_required_result_capabilities',
    description: 'Asks only for what the client declared (elicitation and/or sampling)',
  })
  async capabilities(@McpContext() context: McpToolContext) {
    const asked = await Promise.allSettled([
      context.elicit(withMcpInputKey('user_name', nameQuestion('What is your name?'))),
      context.sample(
        withMcpInputKey('greeting', {
          messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }],
          maxTokens: 50,
        }),
      ),
    ]);
    // Skip what the client cannot do; anything else (an input round in progress) goes on.
    const other = asked.find((outcome) => outcome.status === 'rejected' && !(outcome.reason instanceof McpMissingClientCapabilitySignal));
    if (other?.status === 'rejected') throw other.reason;
    return text(`Answered: ${asked.filter((outcome) => outcome.status === 'fulfilled').length} of ${asked.length}`);
  }

  @McpPrompt({ name: 'test_input_required_result_prompt', description: 'A prompt that asks the user for its context first' })
  async prompt() {
    const answer = await this.input.elicit(
      withMcpInputKey('user_context', {
        message: 'What context should the prompt use?',
        requestedSchema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
      }),
    );
    return `Use this context: ${String(answer.content?.context ?? 'none')}`;
  }
}
