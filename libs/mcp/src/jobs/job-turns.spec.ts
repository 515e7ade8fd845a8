import { Redis } from 'ioredis';
import { startRedisServer, type RedisServerHandle } from '../../../../test/kit/redis-server.harness.js';
import { eventually } from '../../../../test/kit/eventually.js';
import { MAX_BULLMQ_PRIORITY, McpJobTurns, priorityFor } from './job-turns.js';

describe('McpJobTurns (on a real Redis)', () => {
  let server: RedisServerHandle;
  let client: Redis;

  beforeAll(async () => {
    server = await startRedisServer();
    client = new Redis(server.url);
  });

  afterAll(async () => {
    await client?.quit();
    await server?.stop();
  });

  it("a job's priority is its tenant's count of jobs on the queue, itself included; tenants count apart", async () => {
    const turns = new McpJobTurns(client, 'count:', 60_000);
    expect(await turns.take('acme', 'a1')).toBe(1);
    expect(await turns.take('acme', 'a2')).toBe(2);
    expect(await turns.take('globex', 'g1')).toBe(1);
    // Taken again (a retried submit): counted once.
    expect(await turns.take('acme', 'a2')).toBe(2);
    expect(await client.zcard('count:job-turns:{acme}')).toBe(2);
  });

  it('tenants whose names differ only by escaping or braces count apart, each in a key tagged with exactly its name', async () => {
    const turns = new McpJobTurns(client, 'escaped:', 60_000);
    const tenants = ['a:b', 'a%3Ab', '{a}', 'a}{b', '%7Ba%7D'];
    for (const tenant of tenants) expect(await turns.take(tenant, 'job-1')).toBe(1);
    expect(await turns.take('a:b', 'job-2')).toBe(2);
    expect((await client.keys('escaped:job-turns:*')).sort()).toEqual(
      ['a%3Ab', 'a%253Ab', '%7Ba%7D', 'a%7D%7Bb', '%257Ba%257D'].map((tag) => `escaped:job-turns:{${tag}}`).sort(),
    );
  });

  it('a released job no longer counts; releasing one never counted changes nothing', async () => {
    const turns = new McpJobTurns(client, 'release:', 60_000);
    await turns.take('acme', 'a1');
    await turns.take('acme', 'a2');
    await turns.release('acme', 'a1');
    await turns.release('acme', 'never');
    expect(await turns.take('acme', 'a3')).toBe(2);
  });

  it('an entry never released (its job lost) stops counting once its TTL is over, and the set expires', async () => {
    const turns = new McpJobTurns(client, 'expiry:', 200);
    await turns.take('acme', 'lost');
    await eventually(async () => (await client.exists('expiry:job-turns:{acme}')) === 0, 2_000, 'turn set expired');
    await turns.take('acme', 'lost-too');
    await eventually(
      async () => (await new McpJobTurns(client, 'expiry:', 60_000).take('acme', 'next')) === 1,
      2_000,
      'lost job uncounted',
    );
  });

  it("stays in BullMQ's priority range: past it, a tenant's jobs share the last priority", () => {
    expect(priorityFor(0)).toBe(1);
    expect(priorityFor(7)).toBe(7);
    expect(MAX_BULLMQ_PRIORITY).toBe(2_097_151);
    expect(priorityFor(5_000_000)).toBe(MAX_BULLMQ_PRIORITY);
  });
});
