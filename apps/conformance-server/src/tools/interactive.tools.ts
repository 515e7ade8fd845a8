import { Injectable } from '@nestjs/common';
import { McpArgs, McpContent, McpContext, McpResult, McpTool, type McpToolContext } from '@nest-mcp/core';
import { setTimeout as sleep } from 'node:timers/promises';
import { ElicitationArgsDto } from './dto/elicitation.dto.js';
import { SamplingArgsDto } from './dto/sampling.dto.js';

const text = (value: string) => McpResult.raw({ content: [McpContent.text(value)] });

/** Tools that talk back while they run: logs, progress, sampling, elicitation, stream reconnection. */
@Injectable()
export class InteractiveTools {
  @McpTool({ name: 'test_tool_with_logging', description: 'Sends three log messages while it runs' })
  async withLogging(@McpContext() context: McpToolContext) {
    for (const [index, message] of ['Tool execution started', 'Tool processing data', 'Tool execution completed'].entries()) {
      if (index > 0) await sleep(50, undefined, { signal: context.signal });
      context.log('info', message);
    }
    return text('Tool with logging executed successfully');
  }

  @McpTool({ name: 'test_tool_with_progress', description: 'Reports progress 0, 50 and 100 of 100' })
  async withProgress(@McpContext() context: McpToolContext) {
    for (const progress of [0, 50, 100]) {
      if (progress > 0) await sleep(50, undefined, { signal: context.signal });
      context.reportProgress(progress, 100, `Completed step ${progress / 50 + 1} of 3`);
    }
    return text('Tool with progress executed successfully');
  }

  @McpTool({ name: 'test_sampling', description: "Asks the client's model to answer a prompt (sampling)" })
  async sampling(@McpArgs() args: SamplingArgsDto, @McpContext() context: McpToolContext) {
    const answer = await context.sample({ messages: [{ role: 'user', content: { type: 'text', text: args.prompt } }], maxTokens: 100 });
    const content = answer.content as { type?: string; text?: string };
    return text(`LLM response: ${content.type === 'text' ? content.text : JSON.stringify(content)}`);
  }

  @McpTool({ name: 'test_elicitation', description: 'Asks the user for a username and an email (elicitation)' })
  async elicitation(@McpArgs() args: ElicitationArgsDto, @McpContext() context: McpToolContext) {
    const answer = await context.elicit({
      message: args.message,
      requestedSchema: {
        type: 'object',
        properties: {
          username: { type: 'string', description: "User's response" },
          email: { type: 'string', description: "User's email address" },
        },
        required: ['username', 'email'],
      },
    });
    return text(`User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`);
  }

  @McpTool({ name: 'test_elicitation_sep1034_defaults', description: 'Elicitation whose fields carry defaults (SEP-1034)' })
  async elicitationDefaults(@McpContext() context: McpToolContext) {
    const answer = await context.elicit({
      message: 'Please review and update the form fields with defaults',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'User name', default: 'John Doe' },
          age: { type: 'integer', description: 'User age', default: 30 },
          score: { type: 'number', description: 'User score', default: 95.5 },
          status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
          verified: { type: 'boolean', description: 'Verification status', default: true },
        },
      },
    });
    return text(`Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`);
  }

  @McpTool({ name: 'test_elicitation_sep1330_enums', description: 'Elicitation with every enum form (SEP-1330)' })
  async elicitationEnums(@McpContext() context: McpToolContext) {
    const answer = await context.elicit({
      message: 'Please select options from the enum fields',
      requestedSchema: {
        type: 'object',
        properties: {
          untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
          titledSingle: {
            type: 'string',
            description: 'Select one option with titles',
            oneOf: [
              { const: 'value1', title: 'First Option' },
              { const: 'value2', title: 'Second Option' },
              { const: 'value3', title: 'Third Option' },
            ],
          },
          legacyEnum: {
            type: 'string',
            description: 'Select one option (legacy)',
            enum: ['opt1', 'opt2', 'opt3'],
            enumNames: ['Option One', 'Option Two', 'Option Three'],
          },
          untitledMulti: {
            type: 'array',
            description: 'Select multiple options',
            items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
          },
          titledMulti: {
            type: 'array',
            description: 'Select multiple options with titles',
            items: {
              anyOf: [
                { const: 'value1', title: 'First Choice' },
                { const: 'value2', title: 'Second Choice' },
                { const: 'value3', title: 'Third Choice' },
              ],
            },
          },
        },
      },
    });
    return text(`Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`);
  }

  @McpTool({
    name: 'test_reconnection',
    description: 'Closes its SSE connection mid-call; the client resumes with Last-Event-ID (SEP-1699)',
  })
  async reconnection(@McpContext() context: McpToolContext) {
    context.closeSseStream();
    await sleep(200, undefined, { signal: context.signal });
    return text('Reconnection test completed: the result was delivered after the client resumed the stream');
  }
}
