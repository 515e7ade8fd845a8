import { z } from 'zod';
import type { McpToolContext } from '../core/mcp-tool-context.interface.js';
import type { McpCallableTool } from './mcp-callable-tool.interface.js';
import { standardArguments, standardOutput } from '../features/tools/schema/standard-tool.schemas.js';
import { toolArguments } from './mcp-call.pipeline.js';
import { McpToolCallRunner } from './tool-call.runner.js';

const input = z.object({ city: z.string().min(2), days: z.number().int().default(3) });
const place = { site: 'Spec#forecast', option: 'input', override: 'inputSchema' };

/** A Standard Schema tool whose handler echoes what it receives. */
function forecastTool(overrides: Partial<McpCallableTool> = {}): McpCallableTool {
  const { validator } = standardArguments(input, place);
  return {
    name: 'forecast',
    site: 'Spec#forecast',
    validator,
    timeoutMs: 1000,
    scopes: [],
    handler: async (args) => args,
    ...overrides,
  };
}

const context = { requestId: 1, signal: new AbortController().signal } as unknown as McpToolContext;

describe('McpToolCallRunner with Standard Schema tools', () => {
  const runner = new McpToolCallRunner();

  it('runs an accepted job on the parsed value: the queue carries the raw arguments, the schema parses them again', async () => {
    const result = await runner.invokeAccepted(forecastTool(), { city: 'Oslo' }, context, new AbortController());
    expect(result.structuredContent).toEqual({ status: 'success', data: { city: 'Oslo', days: 3 } });
  });

  it('sends the data its output schema parsed, and passes error envelopes untouched', async () => {
    const { parse } = standardOutput(z.object({ city: z.string() }), { ...place, option: 'output', override: 'outputSchema' });
    const tool = forecastTool({ parseOutput: parse });
    const ok = await runner.invoke(tool, { city: 'Oslo', days: 3 }, context, new AbortController());
    expect(ok.structuredContent).toEqual({ status: 'success', data: { city: 'Oslo' } });
    const failing = forecastTool({
      parseOutput: parse,
      handler: async () => {
        throw new Error('boom');
      },
    });
    expect((await runner.invoke(failing, {}, context, new AbortController())).structuredContent).toMatchObject({
      status: 'error',
      error: { code: 'INTERNAL_ERROR' },
    });
  });

  it('names failing fields as the caller sees them when transforms renamed the arguments', async () => {
    const tool = forecastTool({ toCallerField: (field) => (field === 'city' ? 'place' : field) });
    const checked = await runner.validate(tool, toolArguments(tool, { city: 'X' }));
    expect(checked.valid).toBe(false);
    if (!checked.valid) expect(checked.result.structuredContent).toMatchObject({ error: { code: 'VALIDATION_ERROR', fields: ['place'] } });
  });
});
