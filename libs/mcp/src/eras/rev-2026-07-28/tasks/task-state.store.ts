import { Inject, Injectable } from '@nestjs/common';
import type { JsonRpcErrorObject } from '../../../core/json-rpc/json-rpc.types.js';
import { MCP_STORE, type McpKeyValueStore } from '../../../stores/key-value.store.js';
import { storeKey } from '../../../stores/store-key.js';
import type { McpInputRequest } from '../mrtr/input-round.js';

/**
 * What the tasks extension adds to a job record (which stays the one record job polling and the 2025-11-25 tasks
 * read): the input requests the task waits for, the answers `tasks/update` delivered (kept for the task's life,
 * so a run that takes the task over on another instance finds them), and the JSON-RPC error of a task that failed.
 */
export interface McpTaskState {
  inputRequests: Record<string, McpInputRequest>;
  answers: Record<string, unknown>;
  failure?: JsonRpcErrorObject;
}

const EMPTY: McpTaskState = { inputRequests: {}, answers: {} };
const MAX_ATTEMPTS = 50;

/** Task states in the shared store, changed only with compare-and-set so any instance may serve `tasks/*`. */
@Injectable()
export class McpTaskStateStore {
  constructor(@Inject(MCP_STORE) private readonly store: McpKeyValueStore) {}

  async get(tenant: string, taskId: string): Promise<McpTaskState> {
    return (await this.store.get<McpTaskState>(this.key(tenant, taskId))) ?? EMPTY;
  }

  /** Applies `change` atomically (retrying on a concurrent write) and returns what it returned. */
  async update<T>(tenant: string, taskId: string, ttlMs: number, change: (state: McpTaskState) => T): Promise<T> {
    const key = this.key(tenant, taskId);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const current = await this.store.get<McpTaskState>(key);
      const next: McpTaskState = structuredClone(current ?? EMPTY);
      const outcome = change(next);
      if (await this.store.compareAndSet(key, current, next, ttlMs)) return outcome;
    }
    throw new Error(`Task ${taskId}: too many concurrent updates`);
  }

  private key(tenant: string, taskId: string): string {
    return storeKey('task-state', tenant, taskId);
  }
}
