import type { McpJobSubmission } from './job.record.js';
import type { McpJobWorker } from './job-worker.interface.js';
import { McpMemoryJobQueue } from './memory-job.queue.js';

/** An executor whose jobs end only when the test says so. */
function controllableExecutor() {
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const aborted: string[] = [];
  const executor = {
    execute: (submission: McpJobSubmission) =>
      new Promise<void>((resolve) => {
        started.push(submission.jobId);
        finishers.set(submission.jobId, resolve);
      }),
    abort: (jobId: string) => {
      aborted.push(jobId);
      return finishers.has(jobId);
    },
  } as unknown as McpJobWorker;
  const finish = async (jobId: string) => {
    finishers.get(jobId)!();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { executor, started, aborted, finish };
}

const job = (tenant: string, jobId: string): McpJobSubmission => ({
  jobId,
  tenant,
  tool: 'report',
  args: {},
  protocolVersion: '2025-11-25',
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

  it('starts no waiting job once the application shuts down', async () => {
    const { executor, started, finish } = controllableExecutor();
    const queue = new McpMemoryJobQueue(executor, 1);
    await queue.submit(job('a', 'a1'));
    await queue.submit(job('a', 'a2'));
    await tick();
    await queue.beforeApplicationShutdown();
    await finish('a1');
    expect(started).toEqual(['a1']);
  });
});
