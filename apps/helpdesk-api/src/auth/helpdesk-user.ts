/** Who calls the helpdesk, from a verified token (`sub`, `tenant_id`, `scope`). */
export interface HelpdeskUser {
  readonly sub: string;
  readonly tenantId: string;
  readonly scopes: readonly string[];
}

/** Where the JWT guard leaves the user on the request. */
export const USER_KEY = 'user';
