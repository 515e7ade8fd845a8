import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { McpHealthIndicator } from '@nest-mcp/core';

/**
 * `GET /health`: 200 `{"status":"ok",...}` while the MCP store, bus and job queue answer (always, in memory);
 * 503 with the failing part under `error` (`mcp.store`, `mcp.bus`, `mcp.jobs`) while Redis is down.
 */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly mcp: McpHealthIndicator,
  ) {}

  @Get()
  @HealthCheck()
  check() {
    return this.health.check([() => this.mcp.isHealthy('mcp')]);
  }
}
