import { Injectable } from '@nestjs/common';
import { McpContent, McpContext, McpListChangedNotifier, McpResult, McpTool, type McpToolContext } from '@nest-mcp/core';

const text = (value: string) => McpResult.raw({ content: [McpContent.text(value)] });

/** Diagnostic tools of the 2026-07-28 `server-stateless` scenario. */
@Injectable()
export class StatelessTools {
  constructor(private readonly lists: McpListChangedNotifier) {}

  @McpTool({ name: 'test_missing_capability', description: "Asks the client's model a question: needs the sampling capability" })
  async missingCapability(@McpContext() context: McpToolContext) {
    const answer = await context.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }], maxTokens: 20 });
    return text(`Sampled: ${JSON.stringify(answer.content)}`);
  }

  @McpTool({
    name: 'test_streaming_elicitation',
    description: 'Asks the user for a value while the request is open (input_required, never a request on the stream)',
  })
  async streamingElicitation(@McpContext() context: McpToolContext) {
    const answer = await context.elicit({
      message: 'Please provide a value',
      requestedSchema: { type: 'object', properties: { value: { type: 'string' } }, required: ['value'] },
    });
    return text(`Elicitation: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`);
  }

  @McpTool({ name: 'test_logging_tool', description: 'Logs three lines; they reach only requests that set a _meta logLevel' })
  logging(@McpContext() context: McpToolContext) {
    for (const line of ['Logging tool started', 'Logging tool working', 'Logging tool finished']) context.log('info', line);
    return text('Logging tool done');
  }

  @McpTool({ name: 'test_trigger_tool_change', description: 'Announces a tools/list change to the open subscriptions/listen streams' })
  triggerToolChange() {
    this.lists.toolsChanged();
    return text('Tools list change announced');
  }

  @McpTool({ name: 'test_trigger_prompt_change', description: 'Announces a prompts/list change to the open subscriptions/listen streams' })
  triggerPromptChange() {
    this.lists.promptsChanged();
    return text('Prompts list change announced');
  }

  @McpTool({
    name: 'test_custom_header_param',
    description: 'Echoes a region that clients mirror into the Mcp-Param-Region header (SEP-2243)',
    inputSchema: {
      type: 'object',
      properties: { region: { type: 'string', description: 'Cloud region, e.g. us-west1', 'x-mcp-header': 'Region' } },
      required: ['region'],
    },
  })
  customHeader(args: { region: string }) {
    return text(`Region: ${args.region}`);
  }
}
