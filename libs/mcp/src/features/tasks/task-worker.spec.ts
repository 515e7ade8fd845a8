import { resolveMcpOptions, resolvePaths } from '../../options/mcp-options.resolver.js';
import type { McpToolContext } from '../../core/mcp-tool-context.interface.js';
import type { McpToolDefinition } from '../tools/mcp-tool-definition.interface.js';
import type { McpToolRegistry } from '../tools/mcp-tool.registry.js';
import { McpToolCallRunner } from '../../execution/tool-call.runner.js';
import { McpMemoryStore } from '../../stores/memory.store.js';
import { McpTenantQuotas } from '../../stores/tenant-quotas.js';
import { McpJobSlots } from '../../jobs/job-slots.js';
import { McpJobStore } from '../../jobs/mcp-job.store.js';
import type { McpJobSubmission } from '../../jobs/job.record.js';
import type { McpRunOutcome, McpTaskChannels, McpTaskRun } from './task-channel.interface.js';
import { McpTaskWorker } from './task-worker.js';
import { NO_ARGUMENTS_VALIDATOR } from '../../execution/validation/fixed-argument.validators.js';

const options = resolveMcpOptions({ name: 'worker', version: '1.0.0' }, resolvePaths({}));

/** A job tool that asks its client one question and answers with what it got. */
const confirmTool: McpToolDefinition = {
  name: 'confirm',
  site: 'Spec#confirm',
  descriptor: { name: 'confirm', description: 'asks first', inputSchema: { type: 'object' } },
  validator: NO_ARGUMENTS_VALIDATOR,
  timeoutMs: 5_000,
  job: {},
  scopes: [],
  handler: async (_args, context: McpToolContext) => ({
    answer: await context.elicit({ message: 'Sure?', requestedSchema: { type: 'object', properties: {} } }),
  }),
};

describe('McpTaskWorker (revision-neutral: a task talks to its client only through the channel its revision hands over)', () => {
  let store: McpMemoryStore;
  let jobs: McpJobStore;
  const registry = {
    hasJobs: true,
    get: (name: string) => (name === confirmTool.name ? confirmTool : undefined),
  } as unknown as McpToolRegistry;

  beforeEach(() => {
    store = new McpMemoryStore();
    jobs = new McpJobStore(store, options, new McpTenantQuotas(store, options), new McpJobSlots(store, options));
  });

  afterEach(() => store.close());

  const submissionOf = async (task: boolean): Promise<McpJobSubmission> => {
    const record = await jobs.create('acme', confirmTool.name);
    return {
      jobId: record.id,
      tenant: 'acme',
      tool: confirmTool.name,
      args: {},
      protocolVersion: '2026-07-28',
      transport: 'http',
      ...(task && { task: { requestId: 7, clientCapabilities: { elicitation: {} } } }),
    };
  };

  it("sends a queued task's questions to its channel, wakes the wait on a signal, and lets the channel settle it", async () => {
    const opened: McpTaskRun[] = [];
    const settled: McpRunOutcome[] = [];
    const channels: McpTaskChannels = {
      open: (run) => {
        opened.push(run);
        return {
          // Waits for a wake-up (tasks/update heard here or on the bus), then answers.
          askClient: async (method) => {
            await run.wakeups.wait(60_000, run.signal);
            return { action: 'accept', content: { via: method } };
          },
          settle: async (outcome) => void settled.push(outcome),
        };
      },
    };
    const worker = new McpTaskWorker(registry, new McpToolCallRunner(), jobs, options, undefined, channels);
    const submission = await submissionOf(true);
    const done = worker.execute(submission);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ record: { id: submission.jobId }, tool: confirmTool, spec: submission.task });
    worker.signal(submission.jobId, 'wake');
    await done;
    expect(settled).toHaveLength(1);
    expect(settled[0].result?.structuredContent).toMatchObject({
      status: 'success',
      data: { answer: { action: 'accept', content: { via: 'elicitation/create' } } },
    });
    // The worker itself records nothing for a task: the channel did (or chose not to).
    expect((await jobs.get('acme', submission.jobId))?.status).toBe('pending');
  });

  it('without a channel runs a task submission as a plain job: no client to ask, the outcome in its record', async () => {
    const worker = new McpTaskWorker(registry, new McpToolCallRunner(), jobs, options);
    const submission = await submissionOf(true);
    await worker.execute(submission);
    const record = await jobs.get('acme', submission.jobId);
    expect(record?.status).toBe('error');
    expect(record?.result?.structuredContent).toMatchObject({ error: { code: 'CLIENT_UNREACHABLE' } });
  });

  it('aborts a task waiting for input on a cancel signal', async () => {
    let signal: AbortSignal | undefined;
    const settled: McpRunOutcome[] = [];
    const channels: McpTaskChannels = {
      open: (run) => ({
        askClient: async () => {
          signal = run.signal;
          await run.wakeups.wait(60_000, run.signal);
          throw new Error('cancelled while waiting');
        },
        settle: async (outcome) => void settled.push(outcome),
      }),
    };
    const worker = new McpTaskWorker(registry, new McpToolCallRunner(), jobs, options, undefined, channels);
    const submission = await submissionOf(true);
    const done = worker.execute(submission);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(worker.abort(submission.jobId)).toBe(true);
    await done;
    expect(signal?.aborted).toBe(true);
    expect(settled).toHaveLength(1);
    expect(worker.abort(submission.jobId)).toBe(false);
  });

  describe('at shutdown (shutdown.graceMs)', () => {
    /** A job tool that works `ms` and, unless `heeds`, ignores its signal (as a handler stuck in I/O would). */
    const sleeper = (ms: number, heeds: boolean): McpToolDefinition => ({
      ...confirmTool,
      name: 'sleeper',
      handler: async (_args, context: McpToolContext) => {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ms).unref();
          if (heeds) context.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()));
        });
        return { slept: ms };
      },
    });
    const workerWith = (tool: McpToolDefinition, graceMs: number) =>
      new McpTaskWorker(
        { hasJobs: true, get: () => tool } as unknown as McpToolRegistry,
        new McpToolCallRunner(),
        jobs,
        resolveMcpOptions({ name: 'worker', version: '1.0.0', shutdown: { graceMs } }, resolvePaths({})),
      );

    it('lets a job that ends within the grace finish and records it', async () => {
      const worker = workerWith(sleeper(50, true), 2_000);
      const submission = await submissionOf(false);
      const done = worker.execute(submission);
      await worker.beforeApplicationShutdown();
      expect(await done).toBe('recorded');
      expect((await jobs.get('acme', submission.jobId))?.status).toBe('success');
    });

    it('interrupts a job still running when the grace is over, even one that ignores its signal, and records nothing', async () => {
      const worker = workerWith(sleeper(800, false), 100);
      const submission = await submissionOf(false);
      const done = worker.execute(submission);
      await new Promise((resolve) => setTimeout(resolve, 20));
      await worker.beforeApplicationShutdown();
      expect(await done).toBe('interrupted');
      // Still pending: the queue hands it back (BullMQ) or abandons it (memory), not the worker.
      expect((await jobs.get('acme', submission.jobId))?.status).toBe('pending');
      await worker.abandon(submission);
      expect((await jobs.get('acme', submission.jobId))?.result?.structuredContent).toMatchObject({
        status: 'error',
        error: { code: 'UNAVAILABLE', retryable: true },
      });
    });
  });
});
