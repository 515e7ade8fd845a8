import { randomUUID } from 'node:crypto';
import type { AlertPriority } from './dto/create-weather-alert.dto.js';

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
 * Alerts per tenant: a tenant can only ever read and write its own partition. The injection token of the
 * alert store; `MemoryAlertStore` serves one instance, `RedisAlertStore` (when `REDIS_URL` is set) all of them.
 */
export abstract class AlertStore {
  abstract create(tenant: string, alert: NewWeatherAlert): Promise<WeatherAlert>;
  abstract list(tenant: string): Promise<WeatherAlert[]>;
  abstract find(tenant: string, alertId: string): Promise<WeatherAlert | undefined>;
  /** Removes one of the tenant's alerts; false when the tenant has no alert with that id. */
  abstract delete(tenant: string, alertId: string): Promise<boolean>;
}

/** The stored form of a new alert: an unguessable id and the creation time. */
export function stampAlert(alert: NewWeatherAlert): WeatherAlert {
  return { alert_id: `alr_${randomUUID()}`, ...alert, created_at: new Date().toISOString() };
}
