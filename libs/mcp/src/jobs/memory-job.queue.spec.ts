import type { McpJobSubmission } from './job.record.js';
import type { McpJobRunEnd, McpJobWorker } from './job-worker.interface.js';
import { McpMemoryJobQueue } from './memory-job.queue.js';

/** An executor whose jobs end only when the test says so. */
function controllableExecutor() {
  const started: string[] = [];
  const finishers = new Map<string, (end: McpJobRunEnd) => void>();
  const aborted: string[] = [];
  const abandoned: string[] = [];
  const executor: McpJobWorker = {
    execute: (submission: McpJobSubmission) =>
      new Promise<McpJobRunEnd>((resolve) => {
        started.push(submission.jobId);
        finishers.set(submission.jobId, resolve);
      }),
    abort: (jobId: string) => {
      aborted.push(jobId);
      return finishers.has(jobId);
    },
    signal: () => undefined,
    abandon: async (submission: McpJobSubmission) => void abandoned.push(submission.jobId),
    drain: async () => undefined,
  };
  const finish = async (jobId: string, end: McpJobRunEnd = 'recorded') => {
    finishers.get(jobId)!(end);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { executor, started, aborted, abandoned, finish };
}

const job = (tenant: string, jobId: string): McpJobSubmission => ({
  jobId,
  tenant,
  tool: 'report',
  args: {},
  protocolVersion: '2025-11-25',
  transport: 'http',
});
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('McpMemoryJobQueue', () => {
  it('runs at most `concurrency` jobs; the next starts when one ends', async () => {
    const { executor, started, finish } = controllableExecutor();
    const queue = new McpMemoryJobQueue(executor, 2);
    for (const id of ['a1', 'a2', 'a3', 'a4']) await queue.submit(job('a', id));
    await tick();
    expect(started).toEqual(['a1', 'a2']);
    await finish('a1');
    expect(started).toEqual(['a1', 'a2', 'a3']);
  });

  it('gives a free worker to the waiting tenant with the fewest running jobs, not to the longest line', async () => {
    const { executor, started, finish } = controllableExecutor();
    const queue = new McpMemoryJobQueue(executor, 2);
    for (const id of ['a1', 'a2', 'a3', 'a4']) await queue.submit(job('a', id));
    await tick();
    await queue.submit(job('b', 'b1'));
    await queue.submit(job('b', 'b2'));
    await finish('a1');
    expect(started).toEqual(['a1', 'a2', 'b1']);
    await finish('a2');
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3']);
  });

  it('a waiting job that is aborted leaves the line and never starts; a running one is aborted in the executor', async () => {
    const { executor, started, aborted, finish } = controllableExecutor();
    const queue = new McpMemoryJobQueue(executor, 1);
    await queue.submit(job('a', 'a1'));
    await queue.submit(job('a', 'a2'));
    await queue.submit(job('a', 'a3'));
    await tick();
    await queue.abort('a2');
    expect(aborted).toEqual([]);
    await queue.abort('a1');
    expect(aborted).toEqual(['a1']);
    await finish('a1');
    expect(started).toEqual(['a1', 'a3']);
  });

  it('starts no waiting job once the application shuts down, and ends it UNAVAILABLE: no other instance will run it', async () => {
    const { executor, started, abandoned, finish } = controllableExecutor();
    const queue = new McpMemoryJobQueue(executor, 1);
    await queue.submit(job('a', 'a1'));
    await queue.submit(job('a', 'a2'));
    await tick();
    await queue.beforeApplicationShutdown();
    expect(abandoned).toEqual(['a2']);
    await finish('a1');
    expect(started).toEqual(['a1']);
    expect(abandoned).toEqual(['a2']);
  });

  it('ends a running job that shutdown interrupted as UNAVAILABLE (nobody else holds it in memory)', async () => {
    const { executor, abandoned, finish } = controllableExecutor();
    const queue = new McpMemoryJobQueue(executor, 2);
    await queue.submit(job('a', 'a1'));
    await queue.submit(job('a', 'a2'));
    await tick();
    await finish('a1', 'interrupted');
    await finish('a2', 'recorded');
    expect(abandoned).toEqual(['a1']);
  });
});
