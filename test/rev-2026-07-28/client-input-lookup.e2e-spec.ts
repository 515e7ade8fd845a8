import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { McpClientInput, McpModule, McpPrompt, withMcpInputKey } from '@nest-mcp/core';
import { call2026 } from './support/requests.js';
import { appForBlock } from '../kit/app-for-block.js';
import { listen } from '../kit/apps.js';

/** Reaches `McpClientInput` only through a ModuleRef lookup at call time: nothing in the app injects it. */
@Injectable()
class LookedUpPrompts {
  constructor(private readonly moduleRef: ModuleRef) {}

  @McpPrompt({ name: 'topic_prompt', description: 'Asks the user for a topic first' })
  async topic() {
    const input = this.moduleRef.get(McpClientInput, { strict: false });
    const answer = await input.elicit(
      withMcpInputKey('topic', {
        message: 'Which topic?',
        requestedSchema: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] },
      }),
    );
    return `Summarise ${String(answer.content?.topic)}`;
  }
}

/** An app that finds McpClientInput through ModuleRef gets its first input round like one that injects it. */
describe('McpClientInput looked up through a ModuleRef', () => {
  const fixture = appForBlock(() => {
    @Module({
      imports: [
        McpModule.forRoot({
          name: 'lookup',
          version: '1.0.0',
          requestState: { secret: 'client-input-lookup-e2e-secret-0123456789abcdef' },
        }),
      ],
      providers: [LookedUpPrompts],
    })
    class LookupModule {}
    return listen([LookupModule]);
  });
  const capabilities = { elicitation: {} };

  it('asks on the very first request, then completes on the retry', async () => {
    const first = await call2026(fixture.url, 1, 'prompts/get', { name: 'topic_prompt' }, { capabilities });
    expect(first.status).toBe(200);
    expect(first.json.result).toMatchObject({ resultType: 'input_required', inputRequests: { topic: { method: 'elicitation/create' } } });
    const second = await call2026(
      fixture.url,
      2,
      'prompts/get',
      {
        name: 'topic_prompt',
        inputResponses: { topic: { action: 'accept', content: { topic: 'tides' } } },
        requestState: first.json.result.requestState,
      },
      { capabilities },
    );
    expect(second.json.result).toMatchObject({
      resultType: 'complete',
      messages: [{ role: 'user', content: { type: 'text', text: 'Summarise tides' } }],
    });
  });
});
