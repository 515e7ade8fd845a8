import { Injectable } from '@nestjs/common';
import { McpTenant, McpTool } from '@nest-mcp/core';
import { AlertStore } from '../alerts/alert.store.js';

/** Tools of the admin server (`/admin/mcp`); each needs the `weather:admin` scope and acts on the caller's tenant only. */
@Injectable()
export class AdminTools {
  constructor(private readonly alerts: AlertStore) {}

  @McpTool({
    description: "Delete every weather alert of the caller's tenant at once. Answers how many were deleted (0 when there were none).",
    title: 'Purge weather alerts',
    scopes: ['weather:admin'],
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  })
  async purgeAlerts(@McpTenant() tenant: string): Promise<{ deleted: number }> {
    return { deleted: await this.alerts.deleteAll(tenant) };
  }
}
