import { Redis } from 'ioredis';

/** The BullMQ queue's keys (`<keyPrefix>bull:jobs:…`, the library's default key prefix `mcp:`). */
const QUEUE_KEYS = 'mcp:bull:jobs';
const READ_INTERVAL_MS = 500;

/** One entry of BullMQ's event stream: its id's millisecond timestamp (Redis clock), the event and its fields. */
export interface QueueEvent {
  at: number;
  event: string;
  jobId?: string;
  fields: Record<string, string>;
}

/**
 * Follows the job queue's event stream (`<queue>:events`, an XADD per transition written by BullMQ's own scripts:
 * `active` each time a worker takes a job, `stalled` when another instance's check finds its lock gone, `completed`,
 * `failed`, retries) from the start of the run, through a Redis restart: the stream is persisted with the rest
 * (AOF), and reading resumes after the last id seen. It is the queue's own record of how often each job started.
 */
export class QueueEventLog {
  readonly events: QueueEvent[] = [];
  private lastId = '0-0';
  private timer?: NodeJS.Timeout;
  private reading?: Promise<void>;
  private readonly client: Redis;

  constructor(redisUrl: string) {
    // Reconnects on its own after the Redis restart; every read in between just fails and is tried again.
    this.client = new Redis(redisUrl, { maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => 200 });
    this.client.on('error', () => undefined);
  }

  start(): void {
    this.timer = setInterval(() => void this.readNew(), READ_INTERVAL_MS);
  }

  /** Reads what is left (retrying while Redis is away, up to `timeoutMs`) and closes the connection. */
  async stop(timeoutMs = 10_000): Promise<void> {
    clearInterval(this.timer);
    await this.reading;
    const deadline = Date.now() + timeoutMs;
    while (!(await this.readNew()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    this.client.disconnect();
  }

  /** Jobs in BullMQ's active list now, with the worker holding each (`processedBy`: `host:pid`). */
  async activeJobs(): Promise<Map<string, string>> {
    const ids = await this.client.lrange(`${QUEUE_KEYS}:active`, 0, -1);
    const workers = await Promise.all(ids.map((id) => this.client.hget(`${QUEUE_KEYS}:${id}`, 'pb')));
    return new Map(ids.map((id, index) => [id, workers[index] ?? '']));
  }

  of(jobId: string): QueueEvent[] {
    return this.events.filter((event) => event.jobId === jobId);
  }

  /** True when everything up to now was read. */
  private async readNew(): Promise<boolean> {
    if (this.reading) return false;
    this.reading = (async () => {
      for (;;) {
        const entries = (await this.client.xrange(`${QUEUE_KEYS}:events`, `(${this.lastId}`, '+', 'COUNT', 1_000)) as [string, string[]][];
        for (const [id, flat] of entries) {
          const fields: Record<string, string> = {};
          for (let index = 0; index + 1 < flat.length; index += 2) fields[flat[index]] = flat[index + 1];
          this.events.push({ at: Number(id.split('-')[0]), event: fields.event, jobId: fields.jobId, fields });
          this.lastId = id;
        }
        if (entries.length < 1_000) return;
      }
    })();
    try {
      await this.reading;
      return true;
    } catch {
      return false;
    } finally {
      this.reading = undefined;
    }
  }
}
