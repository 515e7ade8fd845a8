import { RequestMethod, type MiddlewareConsumer } from '@nestjs/common';
import type { ModulesContainer } from '@nestjs/core';
import { RouteMiddleware } from './route-middleware.js';
import type { RouteShape } from './route-metadata.js';

class ReportsController {}
class OtherController {}
function Logger(): void {}

const route = (verb: RouteShape['verb'], path: string): RouteShape => ({ verb, path, pathParams: [], params: [] });

/** The middleware an app binds in one module's `configure()`. */
function middlewareOf(configure: (consumer: MiddlewareConsumer) => void): RouteMiddleware {
  return RouteMiddleware.read(new Map([['m', { instance: { configure } }]]) as unknown as ModulesContainer);
}

describe('RouteMiddleware', () => {
  it('a binding to the controller reaches each of its routes, and no other controller', () => {
    const middleware = middlewareOf((consumer) => consumer.apply(Logger).forRoutes(ReportsController));
    expect(middleware.namesFor(route('GET', '/reports/daily'), ReportsController)).toEqual(['Logger']);
    expect(middleware.namesFor(route('GET', '/reports/daily'), OtherController)).toEqual([]);
  });

  it.each([
    ['*', 'GET', '/reports/daily', true],
    ['{*splat}', 'POST', '/x', true],
    ['reports/*', 'GET', '/reports/daily', true],
    ['reports/:id', 'GET', '/reports/:id', true],
    // A literal segment where the route has a parameter: it runs for some of the route's requests.
    ['reports/5', 'GET', '/reports/:id', true],
    ['reports', 'GET', '/reports/daily', false],
    ['audit/*', 'GET', '/reports/daily', false],
    ['REPORTS/daily', 'GET', '/reports/daily', true],
  ] as const)('the path %s reaches %s %s: %s', (path, verb, routePath, reaches) => {
    const middleware = middlewareOf((consumer) => consumer.apply(Logger).forRoutes(path));
    expect(middleware.namesFor(route(verb, routePath), OtherController).length > 0).toBe(reaches);
  });

  it('a route object reaches only its verb (or ALL); an exclude must cover every request of the route', () => {
    const byVerb = middlewareOf((consumer) => consumer.apply(Logger).forRoutes({ path: 'reports/*', method: RequestMethod.POST }));
    expect(byVerb.namesFor(route('GET', '/reports/daily'), OtherController)).toEqual([]);
    expect(byVerb.namesFor(route('POST', '/reports/daily'), OtherController)).toEqual(['Logger']);
    const excluded = middlewareOf((consumer) => consumer.apply(Logger).exclude('reports/daily', 'reports/5').forRoutes(ReportsController));
    expect(excluded.namesFor(route('GET', '/reports/daily'), ReportsController)).toEqual([]);
    expect(excluded.namesFor(route('GET', '/reports/:id'), ReportsController)).toEqual(['Logger']);
  });
});
