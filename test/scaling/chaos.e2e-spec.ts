import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startRedisServer, type RedisServerHandle } from '../kit/redis-server.harness.js';
import { SpawnedWeatherServer } from '../kit/apps.js';
import { ensureBuilt } from '../kit/build.js';
import { startNginx, type NginxHandle } from '../kit/nginx.js';
import {
  alertCreator,
  type ChaosAlertKey,
  type ChaosContext,
  type ChaosJob,
  jobSubmitter,
  listAlerts,
  sdkHttpClient,
  sdkSseClient,
} from './chaos-clients.js';
import { QueueEventLog } from './chaos-job-events.js';
import { ChaosTally } from './chaos-tally.js';

/** How long the clients run (env CHAOS_DURATION_MS for local runs; 60 s by default, as in CI). */
const DURATION_MS = Number(process.env.CHAOS_DURATION_MS ?? 60_000);
/** One instance is killed a third into the run and started again on its port this much later. */
const KILL_AT_MS = DURATION_MS / 3;
const RESTART_AFTER_MS = 3_000;
/** Redis is killed two thirds into the run and started again on its port and data directory this much later. */
const REDIS_AT_MS = (2 * DURATION_MS) / 3;
const REDIS_DOWN_MS = 1_000;
/** After the run, jobs and alert retries still under way get this long to end. */
const DRAIN_MS = 45_000;

const READER_KEY = 'chaos-reader-key-0123456789';
const JOBS_KEY = 'chaos-jobs-key-0123456789';
const ALERT_TENANTS = ['chaos-alerts-a', 'chaos-alerts-b'];
const alertKey = (tenant: string) => `${tenant}-key-0123456789`;
const API_KEYS = [
  `${READER_KEY}|chaos-readers`,
  `${JOBS_KEY}|chaos-jobs`,
  ...ALERT_TENANTS.map((tenant) => `${alertKey(tenant)}|${tenant}`),
].join(',');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * Three built weather servers (`node dist/apps/weather-server/main.js`) behind a real round-robin nginx without
 * stickiness, on one Redis with AOF persistence. For DURATION_MS, SDK clients with sessions (Streamable HTTP),
 * legacy HTTP+SSE clients, job submitters and idempotent alert creators run, while one instance is `kill -9`'d and
 * started again, and Redis is killed and started again once (fsync on every write: nothing acknowledged is lost).
 */
describe('chaos: three instances behind nginx, kill -9 of one, a Redis restart', () => {
  let dataDir: string;
  let redis: RedisServerHandle | undefined;
  let nginx: NginxHandle | undefined;
  let events: QueueEventLog | undefined;
  const instances: (SpawnedWeatherServer | undefined)[] = [];
  /** Every process started, the killed one included: what they logged goes into the figures. */
  const processes: SpawnedWeatherServer[] = [];
  const ports: number[] = [];
  const env = () => ({ REDIS_URL: redis!.url, MCP_PUBLIC_URL: nginx!.baseUrl, MCP_API_KEYS: API_KEYS, REPORT_DELAY_MS: '2000' });

  beforeAll(async () => {
    await ensureBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'nest-mcp-chaos-redis-'));
    redis = await startRedisServer({ appendOnly: { dir: dataDir } });
    for (let index = 0; index < 3; index++) ports.push(await freePort());
    nginx = await startNginx({ upstreams: ports.map((port) => `127.0.0.1:${port}`) });
    instances.push(...(await Promise.all(ports.map((port) => SpawnedWeatherServer.start(env(), { port })))));
    processes.push(...(instances as SpawnedWeatherServer[]));
  }, 200_000);

  afterAll(async () => {
    await events?.stop(1_000).catch(() => undefined);
    for (const instance of instances) await instance?.stop('SIGKILL').catch(() => undefined);
    await nginx?.stop();
    await redis?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'loses no job, runs none twice, creates one alert per key, and answers every request with a result or a retryable error',
    async () => {
      const tally = new ChaosTally();
      const jobs: ChaosJob[] = [];
      const alertKeys: ChaosAlertKey[][] = ALERT_TENANTS.map(() => []);
      let stopped = false;
      let drainDeadline = Number.POSITIVE_INFINITY;
      const drainUntil = () => drainDeadline;
      const context: ChaosContext = { baseUrl: nginx!.baseUrl, tally, stopped: () => stopped };
      events = new QueueEventLog(redis!.url);
      events.start();

      const startedAt = Date.now();
      tally.origin = startedAt;
      const since = (at: number) => at - startedAt;
      const clients = [
        ...[0, 1].map((index) => sdkHttpClient(context, READER_KEY, index)),
        ...[0, 1].map((index) => sdkSseClient(context, READER_KEY, index)),
        ...[0, 1, 2].map(() => jobSubmitter(context, JOBS_KEY, jobs, drainUntil)),
        ...ALERT_TENANTS.map((tenant, index) => alertCreator(context, alertKey(tenant), alertKeys[index], drainUntil)),
      ];

      // Whatever fails below, the clients stop and drain, so nothing keeps running after the test.
      let timeline: { killedAt: number; restartedAt: number; redisDownAt: number; redisUpAt: number; instanceBackMs: number };
      let interrupted: string[];
      let victimIndex: number;
      try {
        // kill -9 the instance running a job (so the takeover is measured), then start it again on its port.
        await sleep(startedAt + KILL_AT_MS - Date.now());
        victimIndex = await instanceRunningAJob(events, instances);
        const victim = instances[victimIndex]!;
        const killedAt = Date.now();
        await victim.stop('SIGKILL');
        // The dead worker's jobs stay in BullMQ's active list, under its name, until another instance's stalled check.
        interrupted = [...(await events.activeJobs())].filter(([, worker]) => worker.endsWith(`:${victim.pid}`)).map(([jobId]) => jobId);
        await sleep(killedAt + RESTART_AFTER_MS - Date.now());
        const restartedAt = Date.now();
        instances[victimIndex] = await SpawnedWeatherServer.start(env(), { port: ports[victimIndex] });
        processes.push(instances[victimIndex]!);
        const instanceBackMs = Date.now() - restartedAt;

        // Redis killed (SIGKILL; AOF with fsync per write) and started again on the same port and data directory.
        await sleep(startedAt + REDIS_AT_MS - Date.now());
        const redisDownAt = Date.now();
        await redis!.kill('SIGKILL');
        await sleep(REDIS_DOWN_MS);
        redis = await startRedisServer({ port: redis!.port, appendOnly: { dir: dataDir } });
        const redisUpAt = Date.now();

        await sleep(startedAt + DURATION_MS - Date.now());
        timeline = { killedAt, restartedAt, redisDownAt, redisUpAt, instanceBackMs };
      } finally {
        stopped = true;
        drainDeadline = Date.now() + DRAIN_MS;
      }
      const { killedAt, restartedAt, redisDownAt, redisUpAt, instanceBackMs } = timeline;
      await Promise.all(clients);
      await events.stop();
      const queue = events;
      events = undefined;

      // Jobs: every accepted job ends in success or in a retryable error envelope (the client is told to start it
      // again: its result is not lost silently); none is missing or still pending after the drain.
      const lost = jobs.filter(
        (job) => job.missing || !job.final || (job.final.status !== 'success' && job.final.error?.retryable !== true),
      );
      const runs = jobs.map((job) => queueRunsOf(queue, job.jobId, interrupted.includes(job.jobId)));
      const ranTwice = runs.filter((run) => run.unexplainedStarts > 0 || run.completions > 1);
      const takeovers = interrupted.map((jobId) => {
        const next = queue.of(jobId).find((event) => event.event === 'active' && event.at >= killedAt);
        const job = jobs.find((candidate) => candidate.jobId === jobId);
        return {
          jobId,
          takeoverMs: next ? next.at - killedAt : undefined,
          endedMs: job?.finalAt ? job.finalAt - killedAt : undefined,
          final: job?.final?.status,
        };
      });
      const acceptedIds = new Set(jobs.map((job) => job.jobId));
      const unseenByClients = new Set(
        queue.events.filter((event) => event.event === 'added' && event.jobId && !acceptedIds.has(event.jobId)).map((event) => event.jobId),
      );

      // Alerts: exactly one per idempotency key, however many retries it took.
      const alertChecks = await Promise.all(
        ALERT_TENANTS.map(async (tenant, index) => {
          const keys = alertKeys[index];
          const listed = await listAlerts(nginx!.baseUrl, alertKey(tenant));
          const answeredIds = new Set(keys.flatMap((entry) => [...entry.alertIds]));
          const describe = (entry: ChaosAlertKey) => ({
            key: entry.key,
            alertIds: [...entry.alertIds],
            answers: entry.answers.map((answer) => `${answer.kind} +${since(answer.at)}ms`),
          });
          return {
            tenant,
            keys: keys.length,
            retriedKeys: keys.filter((entry) => entry.attempts > 1).length,
            unresolvedKeys: keys.filter((entry) => entry.alertIds.size === 0).length,
            keysWithTwoAlertIds: keys.filter((entry) => entry.alertIds.size > 1).length,
            listed: listed.length,
            listedNotAnswered: listed.filter((alert) => !answeredIds.has(alert.alert_id)).length,
            answeredNotListed: [...answeredIds].filter((id) => !listed.some((alert) => alert.alert_id === id)).length,
            retried: keys.filter((entry) => entry.attempts > 1).map(describe),
            unanswered: listed
              .filter((alert) => !answeredIds.has(alert.alert_id))
              .map((alert) => ({ alert_id: alert.alert_id, createdAt: `+${since(Date.parse(alert.created_at))}ms` })),
          };
        }),
      );

      const statuses = nginx!.accessLog().map((line) => line.split(' '));
      const balancer5xx = statuses.filter(([status]) => Number(status) >= 500 && status !== '503');
      const figures = {
        durationMs: DURATION_MS,
        timeline: {
          killedAt: since(killedAt),
          restartedAt: since(restartedAt),
          redisDownAt: since(redisDownAt),
          redisUpAt: since(redisUpAt),
        },
        requests: tally.count(),
        requestsByClient: tally.byKind(),
        failures: tally.failures().length,
        slowestAnswerMs: tally.slowestMs(),
        failureExamples: tally.failureExamples(),
        answersByKind: tally.examplesByKind(),
        serverLog: processes.flatMap((server) => warningsOf(server)),
        nginx: { requests: statuses.length, byStatus: countBy(statuses.map(([status]) => status)) },
        kill: {
          instance: victimIndex,
          interruptedJobs: interrupted.length,
          takeovers,
          restartedInstanceListeningMs: instanceBackMs,
          recovery: tally.recoveryMs(killedAt, ['sdk-http', 'sdk-sse', 'jobs', 'alerts']),
          errorsUntilRedisRestart: tally.errorsBetween(killedAt, redisDownAt),
        },
        redisRestart: {
          downMs: redisUpAt - redisDownAt,
          recovery: tally.recoveryMs(redisDownAt, ['sdk-http', 'sdk-sse', 'jobs', 'alerts']),
          errorsWithin10s: tally.errorsBetween(redisDownAt, redisDownAt + 10_000),
        },
        jobs: {
          accepted: jobs.length,
          success: jobs.filter((job) => job.final?.status === 'success').length,
          retryableError: jobs.filter((job) => job.final?.status === 'error' && job.final.error?.retryable === true).length,
          lost: lost.map((job) => ({
            jobId: job.jobId,
            acceptedAt: since(job.acceptedAt),
            missing: job.missing ?? false,
            final: job.final,
            queue: queue.of(job.jobId).map((event) => `${event.event} +${since(event.at)}ms`),
          })),
          ranTwice,
          queuedButUnseenByClients: unseenByClients.size,
          queueEvents: countBy(queue.events.map((event) => event.event)),
        },
        alerts: alertChecks,
      };
      process.stdout.write(`chaos figures:\n${JSON.stringify(figures, null, 2)}\n`);

      expect(tally.failureExamples()).toEqual([]);
      expect(balancer5xx).toEqual([]);
      expect(jobs.length).toBeGreaterThan(0);
      expect(lost).toEqual([]);
      expect(ranTwice).toEqual([]);
      for (const check of alertChecks) {
        expect(check).toMatchObject({
          unresolvedKeys: 0,
          keysWithTwoAlertIds: 0,
          listedNotAnswered: 0,
          answeredNotListed: 0,
          unanswered: [],
        });
        expect(check.listed).toBe(check.keys);
      }
      expect(takeovers.every((takeover) => takeover.takeoverMs !== undefined)).toBe(true);
    },
    DURATION_MS + DRAIN_MS + 60_000,
  );
});

/** The index of an instance that has a job running now (BullMQ's `processedBy` names host:pid); the second otherwise. */
async function instanceRunningAJob(events: QueueEventLog, instances: (SpawnedWeatherServer | undefined)[]): Promise<number> {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    const workers = [...(await events.activeJobs().catch(() => new Map<string, string>())).values()];
    const index = instances.findIndex((instance) => instance && workers.some((worker) => worker.endsWith(`:${instance.pid}`)));
    if (index >= 0) return index;
    await sleep(100);
  }
  return 1;
}

/**
 * How often the queue started and completed a job, from its event stream. A start beyond the first is explained
 * when the job's worker was killed (its lock lapsed: one `stalled`, then `active` again) or when the attempt before
 * failed before the tool ran (a BullMQ retry: `waiting` after `failed`, or `delayed`); any other start means the job
 * ran again while its first worker still lived.
 */
function queueRunsOf(events: QueueEventLog, jobId: string, interruptedByKill: boolean) {
  const own = events.of(jobId);
  const starts = own.filter((event) => event.event === 'active').length;
  const stalls = own.filter((event) => event.event === 'stalled').length;
  const retries = own.filter((event) => event.event === 'delayed' || (event.event === 'waiting' && event.fields.prev === 'failed')).length;
  const completions = own.filter((event) => event.event === 'completed').length;
  const explained = 1 + (interruptedByKill ? 1 : 0) + retries;
  return {
    jobId,
    starts,
    stalls,
    retries,
    completions,
    unexplainedStarts: Math.max(0, starts - explained) + Math.max(0, stalls - (interruptedByKill ? 1 : 0)),
  };
}

/** The ERROR and WARN lines a server logged, each with the first line of the stack after it (colours removed). */
function warningsOf(server: SpawnedWeatherServer): string[] {
  const lines = server.stderr.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
  return lines
    .flatMap((line, index) => {
      if (!/\b(ERROR|WARN)\b/.test(line)) return [];
      const next = lines[index + 1] ?? '';
      return [
        `pid ${server.pid}: ${line.slice(0, 300)}${/^\s*\S/.test(next) && !/\[Nest\]/.test(next) ? ` | ${next.trim().slice(0, 300)}` : ''}`,
      ];
    })
    .slice(0, 12);
}

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}
