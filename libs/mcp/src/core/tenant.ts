import type { McpPrincipal } from './mcp-principal.interface.js';

/** The tenant of calls made without authentication. */
export const DEFAULT_TENANT = 'default';

/** The tenant a principal acts for: its own, or {@link DEFAULT_TENANT} when unauthenticated or tenant-less. */
export const tenantOf = (principal: { readonly tenant?: McpPrincipal['tenant'] } | undefined): string =>
  principal?.tenant ?? DEFAULT_TENANT;
