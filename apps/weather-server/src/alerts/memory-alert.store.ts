import { AlertStore, stampAlert, type NewWeatherAlert, type WeatherAlert } from './alert.store.js';

/** Alerts in this process's memory (one instance); callers get copies, never the stored objects. */
export class MemoryAlertStore extends AlertStore {
  private readonly byTenant = new Map<string, WeatherAlert[]>();

  async create(tenant: string, alert: NewWeatherAlert): Promise<WeatherAlert> {
    const stored = stampAlert(alert);
    const alerts = this.byTenant.get(tenant) ?? [];
    alerts.push(stored);
    this.byTenant.set(tenant, alerts);
    return { ...stored };
  }

  async list(tenant: string): Promise<WeatherAlert[]> {
    return (this.byTenant.get(tenant) ?? []).map((alert) => ({ ...alert }));
  }

  async find(tenant: string, alertId: string): Promise<WeatherAlert | undefined> {
    const alert = this.byTenant.get(tenant)?.find((candidate) => candidate.alert_id === alertId);
    return alert && { ...alert };
  }

  async delete(tenant: string, alertId: string): Promise<boolean> {
    const alerts = this.byTenant.get(tenant) ?? [];
    const index = alerts.findIndex((alert) => alert.alert_id === alertId);
    if (index < 0) return false;
    alerts.splice(index, 1);
    return true;
  }
}
