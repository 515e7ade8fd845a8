import { createHash, randomUUID } from 'node:crypto';
import type { AlertPriority } from './dto/create-weather-alert.dto.js';

/** Alerts one tenant may keep: creating one more is refused until some are deleted. */
export const MAX_ALERTS_PER_TENANT = 1_000;

/** A stored alert; every alert belongs to exactly one tenant. */
export interface WeatherAlert {
  alert_id: string;
  city_id: string;
  city: string;
  threshold_celsius: number;
  priority: AlertPriority;
  created_at: string;
}

/** What `create` is given: the alert without its generated fields. */
export type NewWeatherAlert = Omit<WeatherAlert, 'alert_id' | 'created_at'>;

/**
 * One page of a tenant's alerts, oldest first. Every alert has a position in its tenant's list that only grows
 * (1, 2, 3… in creation order); `next` is the position to continue after, absent on the last page.
 */
export interface AlertPage {
  alerts: WeatherAlert[];
  next?: number;
}

/**
 * Alerts per tenant: a tenant can only ever read and write its own partition, and keeps at most
 * `MAX_ALERTS_PER_TENANT` of them. The injection token of the alert store; `MemoryAlertStore` serves one
 * instance, `RedisAlertStore` (when `REDIS_URL` or `REDIS_CLUSTER_NODES` is set) all of them.
 */
export abstract class AlertStore {
  /**
   * Stores the alert; undefined when the tenant already has as many alerts as it may keep. With `requestKey` (the
   * call's idempotency key) the alert's id comes from the key and a create whose id exists returns the stored alert,
   * in the same atomic step: a retry creates nothing even when the first call's instance died after storing the
   * alert and before the key's answer was recorded (the one window the library's idempotency record cannot close).
   */
  abstract create(tenant: string, alert: NewWeatherAlert, requestKey?: string): Promise<WeatherAlert | undefined>;
  /** Up to `limit` of the tenant's alerts whose position comes after `after` (0 for the first page). */
  abstract list(tenant: string, page: { after: number; limit: number }): Promise<AlertPage>;
  abstract find(tenant: string, alertId: string): Promise<WeatherAlert | undefined>;
  /** Removes one of the tenant's alerts; false when the tenant has no alert with that id. */
  abstract delete(tenant: string, alertId: string): Promise<boolean>;
  /** Removes every alert of the tenant and says how many there were; positions keep growing, so old cursors stay valid. */
  abstract deleteAll(tenant: string): Promise<number>;
}

/**
 * The stored form of a new alert: an unguessable id (derived from the tenant and `requestKey` when there is one: two
 * tenants sending the same key get two ids) and the creation time.
 */
export function stampAlert(tenant: string, alert: NewWeatherAlert, requestKey?: string): WeatherAlert {
  return {
    alert_id: `alr_${requestKey === undefined ? randomUUID() : idFromKey(tenant, requestKey)}`,
    ...alert,
    created_at: new Date().toISOString(),
  };
}

/**
 * A UUID-shaped digest of the tenant and request key: the same pair, the same id; neither can be read back from it.
 * Both are length-prefixed so that no tenant/key split can collide with another.
 */
function idFromKey(tenant: string, requestKey: string): string {
  const hex = createHash('sha256').update(`weather-alert:${tenant.length}:${tenant}:${requestKey}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
