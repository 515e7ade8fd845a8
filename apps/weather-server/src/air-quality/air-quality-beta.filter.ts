import { Injectable } from '@nestjs/common';
import type { McpPrincipal, McpToolDescriptor, McpToolFilter } from '@nest-mcp/core';

/** The tools only beta tenants see. */
export const BETA_TOOLS: ReadonlySet<string> = new Set(['get_air_quality']);

/** The tenant of callers without authentication (stdio without `MCP_API_KEY`). */
const ANONYMOUS_TENANT = 'default';

/**
 * Shows the beta tools to the tenants listed in `WEATHER_BETA_TENANTS` (comma-separated, read at boot); everyone
 * else neither lists nor can call them (an unknown tool, -32602).
 */
@Injectable()
export class AirQualityBetaFilter implements McpToolFilter {
  private readonly tenants = new Set(
    (process.env.WEATHER_BETA_TENANTS ?? '')
      .split(',')
      .map((tenant) => tenant.trim())
      .filter(Boolean),
  );

  isVisible(tool: McpToolDescriptor, principal: McpPrincipal | undefined): boolean {
    return !BETA_TOOLS.has(tool.name) || this.tenants.has(principal?.tenant ?? ANONYMOUS_TENANT);
  }
}
