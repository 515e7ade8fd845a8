import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { McpArgs, McpPrompt, McpPromptRegistry } from '../../index.js';
import { bootMcp, closeMcpApps, dispatch } from '../../../../../test/kit/boot-mcp.js';

const topic = z.object({
  topic: z.string().min(3).describe('What to write about'),
  tone: z.enum(['dry', 'warm']).default('dry'),
});

@Injectable()
class Prompts {
  @McpPrompt({ description: 'Writes a haiku', arguments: topic })
  haiku(@McpArgs() args: z.infer<typeof topic>) {
    return `A ${args.tone} haiku about ${args.topic}`;
  }
}

type Answer = { result?: Record<string, any>; error?: { code: number; message: string; data?: { fields?: string[] } } };

describe('prompts with Standard Schema arguments', () => {
  afterEach(closeMcpApps);

  it('lists the arguments the schema describes and hands the method its parsed value', async () => {
    const app = await bootMcp([Prompts]);
    const list = (await dispatch(app, 'prompts/list')) as unknown as Answer;
    expect(list.result?.prompts[0].arguments).toEqual([
      { name: 'topic', description: 'What to write about', required: true },
      { name: 'tone', required: false },
    ]);
    const got = (await dispatch(app, 'prompts/get', { name: 'haiku', arguments: { topic: 'rain' } })) as unknown as Answer;
    expect(got.result?.messages[0].content.text).toBe('A dry haiku about rain');
  });

  it('refuses arguments the schema refuses with -32602 and the failing fields', async () => {
    const app = await bootMcp([Prompts]);
    const got = (await dispatch(app, 'prompts/get', { name: 'haiku', arguments: { topic: 'no', tone: 'loud' } })) as unknown as Answer;
    expect(got.error).toMatchObject({ code: -32602, data: { fields: ['topic', 'tone'] } });
  });

  it('takes a Standard Schema in a runtime registration', async () => {
    const app = await bootMcp([], { options: { lists: { listChanged: { prompts: true } } } });
    app
      .get(McpPromptRegistry)
      .register({ name: 'greet', description: 'Greets', args: z.object({ who: z.string().max(5) }), handler: (args) => `Hi ${args.who}` });
    const ok = (await dispatch(app, 'prompts/get', { name: 'greet', arguments: { who: 'Ann' } })) as unknown as Answer;
    expect(ok.result?.messages[0].content.text).toBe('Hi Ann');
    const bad = (await dispatch(app, 'prompts/get', { name: 'greet', arguments: { who: 'Annabelle' } })) as unknown as Answer;
    expect(bad.error).toMatchObject({ code: -32602, data: { fields: ['who'] } });
  });
});
