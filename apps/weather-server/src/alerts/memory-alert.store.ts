import { AlertStore, MAX_ALERTS_PER_TENANT, stampAlert, type AlertPage, type NewWeatherAlert, type WeatherAlert } from './alert.store.js';

interface TenantAlerts {
  lastPosition: number;
  /** In position order (creation order). */
  entries: Array<{ position: number; alert: WeatherAlert }>;
}

/** Alerts in this process's memory (one instance); callers get copies, never the stored objects. */
export class MemoryAlertStore extends AlertStore {
  private readonly byTenant = new Map<string, TenantAlerts>();

  constructor(private readonly maxPerTenant = MAX_ALERTS_PER_TENANT) {
    super();
  }

  async create(tenant: string, alert: NewWeatherAlert, requestKey?: string): Promise<WeatherAlert | undefined> {
    const alerts = this.byTenant.get(tenant) ?? { lastPosition: 0, entries: [] };
    const stored = stampAlert(tenant, alert, requestKey);
    const existing = requestKey === undefined ? undefined : alerts.entries.find((entry) => entry.alert.alert_id === stored.alert_id);
    if (existing) return { ...existing.alert };
    if (alerts.entries.length >= this.maxPerTenant) return undefined;
    alerts.lastPosition += 1;
    alerts.entries.push({ position: alerts.lastPosition, alert: stored });
    this.byTenant.set(tenant, alerts);
    return { ...stored };
  }

  async list(tenant: string, page: { after: number; limit: number }): Promise<AlertPage> {
    const entries = this.byTenant.get(tenant)?.entries ?? [];
    const start = firstAfter(entries, page.after);
    const taken = entries.slice(start, start + page.limit);
    const more = start + taken.length < entries.length;
    return { alerts: taken.map(({ alert }) => ({ ...alert })), ...(more && { next: taken[taken.length - 1].position }) };
  }

  async find(tenant: string, alertId: string): Promise<WeatherAlert | undefined> {
    const entry = this.byTenant.get(tenant)?.entries.find(({ alert }) => alert.alert_id === alertId);
    return entry && { ...entry.alert };
  }

  async delete(tenant: string, alertId: string): Promise<boolean> {
    const entries = this.byTenant.get(tenant)?.entries ?? [];
    const index = entries.findIndex(({ alert }) => alert.alert_id === alertId);
    if (index < 0) return false;
    entries.splice(index, 1);
    return true;
  }

  async deleteAll(tenant: string): Promise<number> {
    return this.byTenant.get(tenant)?.entries.splice(0).length ?? 0;
  }
}

/** Index of the first entry whose position is above `after` (binary search: positions are sorted). */
function firstAfter(entries: ReadonlyArray<{ position: number }>, after: number): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (entries[middle].position <= after) low = middle + 1;
    else high = middle;
  }
  return low;
}
