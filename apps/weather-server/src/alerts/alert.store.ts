import { Injectable } from '@nestjs/common';
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

/** Alerts per tenant: a tenant can only ever read and write its own partition. */
@Injectable()
export class AlertStore {
  private readonly byTenant = new Map<string, WeatherAlert[]>();

  create(tenant: string, alert: Omit<WeatherAlert, 'alert_id' | 'created_at'>): WeatherAlert {
    const stored: WeatherAlert = { alert_id: `alr_${randomUUID()}`, ...alert, created_at: new Date().toISOString() };
    const alerts = this.byTenant.get(tenant) ?? [];
    alerts.push(stored);
    this.byTenant.set(tenant, alerts);
    return { ...stored };
  }

  list(tenant: string): WeatherAlert[] {
    return (this.byTenant.get(tenant) ?? []).map((alert) => ({ ...alert }));
  }

  find(tenant: string, alertId: string): WeatherAlert | undefined {
    const alert = this.byTenant.get(tenant)?.find((candidate) => candidate.alert_id === alertId);
    return alert && { ...alert };
  }

  /** Removes one of the tenant's alerts; false when the tenant has no alert with that id. */
  delete(tenant: string, alertId: string): boolean {
    const alerts = this.byTenant.get(tenant) ?? [];
    const index = alerts.findIndex((alert) => alert.alert_id === alertId);
    if (index < 0) return false;
    alerts.splice(index, 1);
    return true;
  }
}
