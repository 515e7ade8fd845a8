import type { McpKeyValueStore } from '@nest-mcp/core';
import { AlertStore, stampAlert, type NewWeatherAlert, type WeatherAlert } from './alert.store.js';

/** A tenant's alerts are kept for a year after its last change. */
const ALERTS_TTL_MS = 365 * 24 * 60 * 60_000;
/** Concurrent writers of one tenant's alerts retry their compare-and-set; this many losses in a row is an error. */
const MAX_WRITE_ATTEMPTS = 20;

/**
 * Alerts in the MCP module's shared store (Redis with `REDIS_URL`), so every instance sees the same alerts: one
 * key per tenant (`weather:alerts:<tenant>`) holding its list, changed by compare-and-set, so two instances
 * creating alerts at once both keep theirs.
 */
export class RedisAlertStore extends AlertStore {
  constructor(private readonly store: McpKeyValueStore) {
    super();
  }

  async create(tenant: string, alert: NewWeatherAlert): Promise<WeatherAlert> {
    const stored = stampAlert(alert);
    await this.change(tenant, (alerts) => [...alerts, stored]);
    return stored;
  }

  async list(tenant: string): Promise<WeatherAlert[]> {
    return (await this.store.get<WeatherAlert[]>(keyOf(tenant))) ?? [];
  }

  async find(tenant: string, alertId: string): Promise<WeatherAlert | undefined> {
    return (await this.list(tenant)).find((alert) => alert.alert_id === alertId);
  }

  async delete(tenant: string, alertId: string): Promise<boolean> {
    let found = false;
    await this.change(tenant, (alerts) => {
      const kept = alerts.filter((alert) => alert.alert_id !== alertId);
      found = kept.length < alerts.length;
      return found ? kept : undefined;
    });
    return found;
  }

  /** Applies `update` to the tenant's list atomically; `update` returning undefined leaves it as it is. */
  private async change(tenant: string, update: (alerts: WeatherAlert[]) => WeatherAlert[] | undefined): Promise<void> {
    const key = keyOf(tenant);
    for (let attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt++) {
      const current = await this.store.get<WeatherAlert[]>(key);
      const next = update(current ?? []);
      if (next === undefined) return;
      if (await this.store.compareAndSet(key, current, next, ALERTS_TTL_MS)) return;
    }
    throw new Error(`The alerts of tenant ${tenant} kept changing during ${MAX_WRITE_ATTEMPTS} writes`);
  }
}

function keyOf(tenant: string): string {
  return `weather:alerts:${tenant}`;
}
