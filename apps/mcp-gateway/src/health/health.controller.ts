import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { McpHealthIndicator, McpUpstreamsHealthIndicator } from '@nest-mcp/core';

/**
 * `GET /health`: the MCP store, bus and job queue (`mcp.*`), and each upstream (`upstreams.<name>`: reachable or
 * not, its tools, its sessions). An upstream that is down is reported but does not fail the check: the gateway
 * serves the others meanwhile.
 */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly mcp: McpHealthIndicator,
    private readonly upstreams: McpUpstreamsHealthIndicator,
  ) {}

  @Get()
  @HealthCheck()
  check() {
    return this.health.check([() => this.mcp.isHealthy('mcp'), () => this.upstreams.isHealthy('upstreams')]);
  }
}
