import { RequestMethod, type MiddlewareConsumer, type Type } from '@nestjs/common';
import type { ModulesContainer } from '@nestjs/core';
import type { RouteShape } from './route-metadata.js';

/** A `forRoutes()` / `exclude()` route object (Nest's `RouteInfo`, not exported from its root). */
interface RouteInfo {
  readonly path: string;
  readonly method: RequestMethod;
}

/** One `consumer.apply(…).exclude(…).forRoutes(…)` of a module's `configure()`. */
interface MiddlewareBinding {
  readonly middleware: readonly unknown[];
  readonly exclude: readonly (string | RouteInfo)[];
  readonly forRoutes: readonly (string | Type<unknown> | RouteInfo)[];
}

/** A `MiddlewareConsumer` that only writes down what `configure()` binds, so it can be matched against routes. */
class RecordingConsumer implements MiddlewareConsumer {
  readonly bindings: MiddlewareBinding[] = [];

  apply(...middleware: unknown[]): ReturnType<MiddlewareConsumer['apply']> {
    const exclude: (string | RouteInfo)[] = [];
    const proxy: ReturnType<MiddlewareConsumer['apply']> = {
      exclude: (...routes) => {
        exclude.push(...routes);
        return proxy;
      },
      forRoutes: (...routes) => {
        this.bindings.push({ middleware: middleware.flat(), exclude, forRoutes: routes });
        return this;
      },
    };
    return proxy;
  }
}

/**
 * The Nest middleware the app binds with `MiddlewareConsumer` (class or functional), read by calling each module's
 * `configure()` with a consumer that records instead of mounting. A tool call does not pass through Nest's
 * middleware, so a route it may apply to is refused at boot rather than served without it.
 */
export class RouteMiddleware {
  private constructor(private readonly bindings: readonly MiddlewareBinding[]) {}

  static read(modules: ModulesContainer): RouteMiddleware {
    const consumer = new RecordingConsumer();
    for (const module of modules.values()) {
      const instance = module.instance as { configure?: (consumer: MiddlewareConsumer) => unknown } | undefined;
      if (typeof instance?.configure === 'function') void instance.configure(consumer);
    }
    return new RouteMiddleware(consumer.bindings);
  }

  /**
   * The names of the middleware that may run for `route` of `controller` over REST: bound to the controller, or to a
   * path that may match the route's (a path parameter matches any segment), and not certainly excluded.
   */
  namesFor(route: RouteShape, controller: Type<unknown>): string[] {
    const names: string[] = [];
    for (const binding of this.bindings) {
      const applies = binding.forRoutes.some((target) =>
        typeof target === 'function' ? target === controller : routeMatches(target, route, 'may'),
      );
      if (!applies || binding.exclude.some((target) => routeMatches(target, route, 'must'))) continue;
      for (const middleware of binding.middleware) names.push(nameOf(middleware));
    }
    return names;
  }
}

function nameOf(middleware: unknown): string {
  const name = typeof middleware === 'function' ? middleware.name : '';
  return name || 'an anonymous middleware';
}

/**
 * Whether a `forRoutes` / `exclude` path (Nest's syntax: `:param`, `*`, `{*splat}`, `{/:optional}`) matches the
 * route's path and verb. `may`: a path parameter of the route matches any segment (the middleware runs for some of
 * its requests); `must`: only a parameter or wildcard of the pattern (it is excluded for all of them).
 */
function routeMatches(target: string | RouteInfo, route: RouteShape, mode: 'may' | 'must'): boolean {
  const info = typeof target === 'string' ? { path: target, method: RequestMethod.ALL } : target;
  if (info.method !== RequestMethod.ALL && info.method !== RequestMethod[route.verb]) return false;
  return segmentsMatch(segmentsOf(info.path), segmentsOf(route.path), mode);
}

function segmentsOf(path: string): string[] {
  return path
    .replace(/[{}]/g, '')
    .split('/')
    .filter((segment) => segment !== '');
}

/** `*`, `*splat` (from `{*splat}`) or `(.*)`: the rest of the path, whatever it is. */
const isWholeWildcard = (segment: string) => /^\*\w*$/.test(segment) || segment === '(.*)';
const isParam = (segment: string) => segment.startsWith(':');

function segmentsMatch(pattern: readonly string[], path: readonly string[], mode: 'may' | 'must'): boolean {
  const [head, ...rest] = pattern;
  if (head === undefined) return path.length === 0;
  // A wildcard inside a segment (`ab*`) may match the rest; it only certainly does alone.
  if (isWholeWildcard(head) || (mode === 'may' && head.includes('*'))) return true;
  const [segment, ...remaining] = path;
  if (segment === undefined) return false;
  const fits = isParam(head) || (isParam(segment) ? mode === 'may' : head.toLowerCase() === segment.toLowerCase());
  return fits && segmentsMatch(rest, remaining, mode);
}
