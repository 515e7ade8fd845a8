import { Injectable } from '@nestjs/common';
import {
  McpArgs,
  McpContent,
  McpContext,
  McpResult,
  McpTaskSupport,
  McpTool,
  McpToolError,
  withMcpInputKey,
  type McpToolContext,
} from '@nest-mcp/core';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfirmDeleteArgsDto, SlowComputeArgsDto } from './task-args.dto.js';

const text = (value: string) => McpResult.raw({ content: [McpContent.text(value)] });

/** Sleeps, turning a cancellation into a tool error rather than a crash. */
async function pause(ms: number, context: McpToolContext): Promise<void> {
  try {
    await sleep(ms, undefined, { signal: context.signal });
  } catch {
    throw new McpToolError('CANCELLED', 'Cancelled while working');
  }
}

/** The fixtures of the tasks extension scenarios (`tasks-*`): job tools run as tasks for requests that declare it. */
@Injectable()
export class TaskTools {
  @McpTool({
    name: 'greet',
    description: 'Greets someone (synchronous, never a task)',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  })
  greet(args: { name: string }) {
    return text(`Hello, ${args.name}!`);
  }

  @McpTool({
    name: 'slow_compute',
    description: 'Works for the given number of seconds, then answers (a task)',
    job: { estimatedSeconds: 2 },
    timeoutMs: 5 * 60_000,
  })
  async slowCompute(@McpArgs() args: SlowComputeArgsDto, @McpContext() context: McpToolContext) {
    await pause((args.seconds ?? 0) * 1000, context);
    return text(`Computed ${args.label ?? 'result'} after ${args.seconds ?? 0}s`);
  }

  @McpTool({ name: 'failing_job', description: 'Always ends with a tool error after about a second (a task only)', job: true })
  @McpTaskSupport({ required: true })
  async failingJob(@McpContext() context: McpToolContext) {
    await pause(1000, context);
    throw new McpToolError('JOB_FAILED', 'This job always fails');
  }

  @McpTool({ name: 'protocol_error_job', description: 'Crashes with an internal error (a task ending failed)', job: true })
  async protocolErrorJob(@McpContext() context: McpToolContext): Promise<never> {
    await pause(200, context);
    throw new Error('Simulated crash inside a task');
  }

  @McpTool({
    name: 'confirm_delete',
    description: 'Deletes a file after the user confirms (a task asking for input)',
    job: true,
    timeoutMs: 5 * 60_000,
  })
  async confirmDelete(@McpArgs() args: ConfirmDeleteArgsDto, @McpContext() context: McpToolContext) {
    const answer = await context.elicit({
      message: `Delete ${args.filename}?`,
      requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
    });
    const confirmed = answer.action === 'accept' && answer.content?.confirm === true;
    return text(confirmed ? `Deleted ${args.filename}` : `Kept ${args.filename}`);
  }

  @McpTool({
    name: 'multi_input',
    description: 'Asks two questions at once (a task with two pending inputs)',
    job: true,
    timeoutMs: 5 * 60_000,
  })
  async multiInput(@McpContext() context: McpToolContext) {
    const question = (message: string) => ({
      message,
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    const [first, second] = await Promise.all([context.elicit(question('First name?')), context.elicit(question('Second name?'))]);
    return text(`Got ${String(first.content?.name)} and ${String(second.content?.name)}`);
  }

  @McpTool({ name: 'test_tool_with_task', description: 'Asks for your name first, then greets you from a task', job: true })
  @McpTaskSupport({ required: true, inputFirst: true })
  async toolWithTask(@McpContext() context: McpToolContext) {
    const answer = await context.elicit(
      withMcpInputKey('user_name', {
        message: 'What is your name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      }),
    );
    const name = answer.action === 'accept' ? String(answer.content?.name ?? 'stranger') : 'stranger';
    context.reportProgress(0, 1, 'Preparing the greeting');
    await pause(300, context);
    return text(`Hello from a task, ${name}!`);
  }
}
