import { Injectable } from '@nestjs/common';
import { McpArgs, McpContext, McpTenant, McpTool, McpToolError, type McpToolContext } from '@nest-mcp/core';
import { findCity } from '../weather/city-lookup.js';
import { decodeAlertCursor, encodeAlertCursor } from './alert-cursor.js';
import { AlertStore, MAX_ALERTS_PER_TENANT, type WeatherAlert } from './alert.store.js';
import { CreateWeatherAlertDto } from './dto/create-weather-alert.dto.js';
import { DeleteWeatherAlertDto } from './dto/delete-weather-alert.dto.js';
import { DEFAULT_ALERTS_PER_PAGE, ListWeatherAlertsDto, MAX_ALERTS_PER_PAGE } from './dto/list-weather-alerts.dto.js';

/** What the user is asked before an alert is deleted. */
const CONFIRMATION_SCHEMA = {
  type: 'object',
  properties: { confirm: { type: 'boolean', description: 'Delete the alert' } },
  required: ['confirm'],
};

/** Alert tools: writes need `weather:write`, reads `weather:read`; each tenant sees only its own alerts. */
@Injectable()
export class AlertTools {
  constructor(private readonly alerts: AlertStore) {}

  @McpTool({
    description: `Create a temperature alert for a city. Write operation: pass a fresh idempotency_key for each new alert. A tenant keeps at most ${MAX_ALERTS_PER_TENANT} alerts; beyond that the call fails with ALERT_LIMIT_REACHED until some are deleted.`,
    title: 'Create weather alert',
    scopes: ['weather:write'],
    idempotencyKey: 'idempotency_key',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  })
  async createWeatherAlert(@McpArgs() args: CreateWeatherAlertDto, @McpTenant() tenant: string): Promise<WeatherAlert> {
    const city = findCity(args.city);
    if (!city) throw new McpToolError('CITY_NOT_FOUND', `Unknown city "${args.city}"`, { retryable: false, fields: ['city'] });
    // The key goes to the store too: the alert and its key are written in one atomic step (see AlertStore#create).
    const created = await this.alerts.create(
      tenant,
      { city_id: city.id, city: city.name, threshold_celsius: args.threshold_celsius, priority: args.priority },
      args.idempotency_key,
    );
    if (!created) {
      // Retryable: room comes back once alerts are deleted (and an idempotency key is not kept for it).
      throw new McpToolError(
        'ALERT_LIMIT_REACHED',
        `This tenant already has ${MAX_ALERTS_PER_TENANT} alerts, the most it may keep; delete some with delete_weather_alert, then retry.`,
        {
          retryable: true,
        },
      );
    }
    return created;
  }

  @McpTool({
    description: `List the caller's weather alerts (only those of the caller's tenant), oldest first, one page per call: at most \`limit\` alerts (default ${DEFAULT_ALERTS_PER_PAGE}, up to ${MAX_ALERTS_PER_PAGE}). When more remain, the answer carries nextCursor: pass it as \`cursor\` to get the next page; the last page has no nextCursor.`,
    title: 'List weather alerts',
    scopes: ['weather:read'],
    annotations: { readOnlyHint: true, openWorldHint: false },
  })
  async listWeatherAlerts(
    @McpArgs() args: ListWeatherAlertsDto,
    @McpTenant() tenant: string,
  ): Promise<{ alerts: WeatherAlert[]; nextCursor?: string }> {
    const page = await this.alerts.list(tenant, { after: decodeAlertCursor(args.cursor), limit: args.limit });
    return { alerts: page.alerts, ...(page.next !== undefined && { nextCursor: encodeAlertCursor(page.next) }) };
  }

  /**
   * Asks the user to confirm, then deletes. In the 2026-07-28 era the question is an `input_required` round and
   * this method runs again with the answer, so everything before `elicit()` only reads.
   */
  @McpTool({
    description:
      "Delete one of the caller's weather alerts. The user is asked to confirm first; nothing is deleted without an explicit yes.",
    title: 'Delete weather alert',
    scopes: ['weather:write'],
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  })
  async deleteWeatherAlert(
    @McpArgs() args: DeleteWeatherAlertDto,
    @McpTenant() tenant: string,
    @McpContext() context: McpToolContext,
  ): Promise<{ alert_id: string; deleted: boolean }> {
    const alert = await this.alerts.find(tenant, args.alert_id);
    if (!alert)
      throw new McpToolError('ALERT_NOT_FOUND', `No alert "${args.alert_id}" for this caller`, { retryable: false, fields: ['alert_id'] });
    const answer = await context.elicit({
      message: `Delete the ${alert.priority} alert for ${alert.city} at ${alert.threshold_celsius} °C?`,
      requestedSchema: CONFIRMATION_SCHEMA,
    });
    const confirmed = answer.action === 'accept' && answer.content?.confirm === true;
    return { alert_id: alert.alert_id, deleted: confirmed && (await this.alerts.delete(tenant, alert.alert_id)) };
  }
}
