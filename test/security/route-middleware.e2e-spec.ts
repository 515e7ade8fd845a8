import { McpConfigurationError } from '@nest-mcp/core';
import { initApp, listen, type RunningApp } from '../kit/apps.js';
import { connectSdkClient } from '../kit/sdk-client.js';
import { REPORT_KEY, routeMiddlewareApp } from './fixtures/route-middleware-app.js';

/**
 * Issue 35: Nest middleware bound with `MiddlewareConsumer` (a class or a function) never runs for a route called as
 * a tool, so a route REST refuses from its middleware answered success over MCP. Such a route is now refused at boot
 * with MCP_ERR_ROUTE_MIDDLEWARE naming it; a route the middleware does not reach (`.exclude()`, another path) or one
 * excluded from the tools (`@McpExcludeRoute()`) boots and serves as before.
 */

async function bootError(binding: Parameters<typeof routeMiddlewareApp>[0]): Promise<unknown> {
  return initApp([routeMiddlewareApp(binding)]).then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('routes as tools and the Nest middleware bound to them', () => {
  it('a class middleware bound to the controller (forRoutes(ReportsController)) fails the boot naming the route', async () => {
    const error = await bootError('controller');
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect(error).toMatchObject({ code: 'MCP_ERR_ROUTE_MIDDLEWARE' });
    expect((error as Error).message).toContain('ReportsController#daily (GET /reports/daily)');
    expect((error as Error).message).toContain('ReportKeyMiddleware');
  });

  it("a functional middleware bound to a path (forRoutes('audit/*')) fails the boot naming the route it reaches", async () => {
    const error = await bootError('functional-path');
    expect(error).toMatchObject({ code: 'MCP_ERR_ROUTE_MIDDLEWARE' });
    expect((error as Error).message).toContain('AuditController#status (GET /audit/status)');
    expect((error as Error).message).toContain('auditOnly');
  });

  describe('middleware that reaches no tool', () => {
    let app: RunningApp;
    beforeAll(async () => {
      app = await listen([routeMiddlewareApp('scoped')]);
    });
    afterAll(() => app?.close());

    it('boots; the tools answer over MCP, and REST still runs the middleware where it is bound', async () => {
      const client = await connectSdkClient(app.url, {}, 'route-middleware');
      try {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name).sort()).toEqual(['daily', 'public', 'status']);
        const result = await client.callTool({ name: 'daily', arguments: {} });
        expect(result.structuredContent).toEqual({ status: 'success', data: { report: 'daily totals' } });
      } finally {
        await client.close();
      }
      expect((await fetch(`${app.base}/audit/log`)).status).toBe(403);
      expect((await fetch(`${app.base}/audit/log`, { headers: { 'X-Audit': 'yes' } })).status).toBe(200);
      expect((await fetch(`${app.base}/reports/daily`, { headers: { 'X-Report-Key': REPORT_KEY } })).status).toBe(200);
    });
  });
});
