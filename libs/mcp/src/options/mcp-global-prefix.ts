import { Injectable } from '@nestjs/common';
import { ApplicationConfig } from '@nestjs/core';

/** An excluded route as Nest keeps it after `setGlobalPrefix(prefix, { exclude })`. */
interface ExcludedRoute {
  pathRegex?: RegExp;
}

/** The app's global prefix, for the URLs the server hands out; read once, after boot (a route it `exclude`s gets none). */
@Injectable()
export class McpGlobalPrefix {
  private read?: { prefix: string; exclude: readonly ExcludedRoute[] };

  constructor(private readonly config: ApplicationConfig) {}

  /** `''` or the prefix with a leading and no trailing slash (`/api`) that Nest puts before `routePath`. */
  of(routePath: string): string {
    const { prefix, exclude } = (this.read ??= this.readConfig());
    if (!prefix) return '';
    const path = routePath.startsWith('/') ? routePath : `/${routePath}`;
    return exclude.some((route) => route.pathRegex?.test(path)) ? '' : prefix;
  }

  /**
   * `auth.resourceMetadata.resource` as clients reach it: a URL whose path is the bare MCP path (`https://x/mcp`,
   * written before the app got its prefix) gets the prefix (`https://x/api/mcp`); any other path (already prefixed,
   * or a proxy's) is the deployer's word and stays.
   */
  resource(resource: string, mcpPath: string): string {
    const prefix = this.of(mcpPath);
    const url = new URL(resource);
    if (!prefix || url.pathname.replace(/\/+$/, '') !== mcpPath) return resource;
    url.pathname = `${prefix}${url.pathname}`;
    return url.toString();
  }

  private readConfig(): { prefix: string; exclude: readonly ExcludedRoute[] } {
    const raw = this.config
      .getGlobalPrefix()
      .trim()
      .replace(/^\/+|\/+$/g, '');
    const exclude = (this.config.getGlobalPrefixOptions()?.exclude ?? []) as readonly ExcludedRoute[];
    return { prefix: raw ? `/${raw}` : '', exclude };
  }
}
