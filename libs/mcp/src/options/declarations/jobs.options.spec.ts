import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import type { McpJobOptions, McpShutdownOptions } from '../mcp-module-options.interface.js';
import { MCP_JOB_OPTIONS, MCP_SHUTDOWN_OPTIONS } from './jobs.options.js';

const resolveJobOptions = (jobs: McpJobOptions | undefined) => MCP_JOB_OPTIONS.resolve(jobs, 'jobs', undefined);
const resolveShutdownOptions = (shutdown: McpShutdownOptions | undefined) => MCP_SHUTDOWN_OPTIONS.resolve(shutdown, 'shutdown', undefined);

describe('job and shutdown options', () => {
  it('defaults bound takeover after an instance dies to lockDurationMs + stalledIntervalMs ≤ 10 s', () => {
    const jobs = resolveJobOptions(undefined);
    expect(jobs.lockDurationMs + jobs.stalledIntervalMs).toBeLessThanOrEqual(10_000);
    expect(jobs.stalledIntervalMs).toBeLessThanOrEqual(jobs.lockDurationMs);
    expect(resolveShutdownOptions(undefined)).toEqual({ graceMs: 10_000 });
  });

  it('takes values in range', () => {
    expect(resolveJobOptions({ lockDurationMs: 2_000, stalledIntervalMs: 2_000, maxStalledCount: 0 })).toMatchObject({
      lockDurationMs: 2_000,
      stalledIntervalMs: 2_000,
      maxStalledCount: 0,
    });
    expect(resolveShutdownOptions({ graceMs: 0 })).toEqual({ graceMs: 0 });
  });

  it('refuses a stalled check rarer than the lock, naming both options', () => {
    expect(() => resolveJobOptions({ lockDurationMs: 5_000, stalledIntervalMs: 15_000 })).toThrow(McpConfigurationError);
    expect(() => resolveJobOptions({ stalledIntervalMs: 30_000 })).toThrow(
      /"jobs\.stalledIntervalMs" \(30000\) must not exceed jobs\.lockDurationMs \(6000\)/,
    );
  });

  it.each([
    [{ lockDurationMs: 500 }, 'jobs.lockDurationMs'],
    [{ lockDurationMs: 3_600_000 }, 'jobs.lockDurationMs'],
    [{ lockDurationMs: 1.5 }, 'jobs.lockDurationMs'],
    [{ stalledIntervalMs: 0 }, 'jobs.stalledIntervalMs'],
    [{ maxStalledCount: -1 }, 'jobs.maxStalledCount'],
    [{ concurrency: 0 }, 'jobs.concurrency'],
    [{ resultTtlMs: '60000' }, 'jobs.resultTtlMs'],
  ])('refuses %j at boot, naming %s', (jobs, option) => {
    expect(() => resolveJobOptions(jobs as never)).toThrow(new RegExp(`"${option.replace('.', '\\.')}" must be an integer`));
  });

  it('refuses a negative, fractional or huge shutdown.graceMs', () => {
    for (const graceMs of [-1, 0.5, 3_600_000])
      expect(() => resolveShutdownOptions({ graceMs })).toThrow(/"shutdown\.graceMs" must be an integer from 0 to 600000/);
    expect(() => resolveShutdownOptions(5 as never)).toThrow(/"shutdown" must be an object/);
  });
});
