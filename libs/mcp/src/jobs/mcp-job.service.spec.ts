import { resolveMcpOptions, resolvePaths } from '../options/mcp-options.resolver.js';
import type { McpToolContext } from '../core/mcp-tool-context.interface.js';
import { McpMemoryStore } from '../stores/memory.store.js';
import { McpStoreUnavailableError } from '../core/errors/store-unavailable.error.js';
import { McpTenantQuotas } from '../stores/tenant-quotas.js';
import { loadBullmq } from './bullmq.loader.js';
import { McpJobSlots } from './job-slots.js';
import type { McpJobQueue } from './job-queue.interface.js';
import type { McpJobWorker } from './job-worker.interface.js';
import { McpJobService } from './mcp-job.service.js';
import { McpJobStore } from './mcp-job.store.js';
import { McpConfigurationError } from '../core/errors/mcp-configuration.error.js';

const options = resolveMcpOptions({ name: 'jobs', version: '1.0.0' }, resolvePaths({}));
const context = { tenant: 'acme', protocolVersion: '2025-11-25' } as McpToolContext;
/** No job runs in these specs: the worker is never reached. */
const worker = {} as McpJobWorker;

describe('McpJobService', () => {
  let store: McpMemoryStore;
  let jobs: McpJobStore;
  let slots: McpJobSlots;

  beforeEach(() => {
    store = new McpMemoryStore();
    slots = new McpJobSlots(store, options);
    jobs = new McpJobStore(store, options, new McpTenantQuotas(store, options), slots);
  });

  afterEach(() => store.close());

  it('queues an accepted job and answers with its pending record', async () => {
    const submitted: string[] = [];
    const queue: McpJobQueue = { submit: async (submission) => void submitted.push(submission.jobId), abort: async () => undefined };
    const record = await new McpJobService(jobs, queue, options, slots, worker).start('report', { city: 'x' }, context);
    expect(record.status).toBe('pending');
    expect(submitted).toEqual([record.id]);
  });

  it('when the queue refuses (Redis down), rethrows and marks the job failed: no pending job that never runs', async () => {
    const refused = new McpStoreUnavailableError('Redis at redis://x is unavailable (down); retry later.');
    const queue: McpJobQueue = { submit: async () => Promise.reject(refused), abort: async () => undefined };
    await expect(new McpJobService(jobs, queue, options, slots, worker).start('report', {}, context)).rejects.toBe(refused);
    const [record] = await jobs.list('acme');
    expect(record.status).toBe('error');
    expect(record.result?.structuredContent).toMatchObject({ status: 'error', error: { code: 'UNAVAILABLE', retryable: true } });
  });

  it('refuses a job beyond jobs.maxQueuedPerTenant before recording it; a job that ends frees its place', async () => {
    const capped = resolveMcpOptions({ name: 'jobs', version: '1.0.0', jobs: { maxQueuedPerTenant: 2 } }, resolvePaths({}));
    const cappedSlots = new McpJobSlots(store, capped);
    const cappedJobs = new McpJobStore(store, capped, new McpTenantQuotas(store, capped), cappedSlots);
    const queue: McpJobQueue = { submit: async () => undefined, abort: async () => undefined };
    const service = new McpJobService(cappedJobs, queue, capped, cappedSlots, worker);
    const first = await service.start('report', {}, context);
    await service.start('report', {}, context);
    await expect(service.start('report', {}, context)).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED', retryable: true });
    expect(await cappedJobs.list('acme')).toHaveLength(2);
    await expect(service.start('report', {}, { ...context, tenant: 'other' })).resolves.toMatchObject({ status: 'pending' });

    await cappedJobs.update('acme', first.id, { status: 'success' });
    await expect(service.start('report', {}, context)).resolves.toMatchObject({ status: 'pending' });
  });
});

describe('McpJobStore.update', () => {
  it('lets the first final state win: a late success does not overwrite a cancellation', async () => {
    const store = new McpMemoryStore();
    const jobs = new McpJobStore(store, options, new McpTenantQuotas(store, options), new McpJobSlots(store, options));
    const record = await jobs.create('acme', 'report');
    await Promise.all([jobs.update('acme', record.id, { status: 'cancelled' }), jobs.update('acme', record.id, { progress: 1 })]);
    expect((await jobs.update('acme', record.id, { status: 'success' }))?.status).toBe('cancelled');
    await store.close();
  });
});

describe('loadBullmq', () => {
  it('names the missing package and the fix', async () => {
    const missing = Object.assign(new Error("Cannot find package 'bullmq'"), { code: 'ERR_MODULE_NOT_FOUND' });
    await expect(loadBullmq(() => Promise.reject(missing))).rejects.toThrow(McpConfigurationError);
    await expect(loadBullmq(() => Promise.reject(missing))).rejects.toThrow(/npm install bullmq/);
  });
});
