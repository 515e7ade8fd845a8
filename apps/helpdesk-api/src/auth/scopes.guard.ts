import { Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { USER_KEY, type HelpdeskUser } from './helpdesk-user.js';

const SCOPES_KEY = 'helpdesk:scopes';

/** The scope a handler needs (`tickets:read`, `tickets:write`, `tickets:admin`). */
export const RequireScope = (scope: string) => SetMetadata(SCOPES_KEY, scope);

/** Refuses (403) a user whose token lacks the handler's scope; runs after {@link JwtAuthGuard}. */
@Injectable()
export class ScopesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const scope = this.reflector.get<string | undefined>(SCOPES_KEY, context.getHandler());
    if (!scope) return true;
    const user = context.switchToHttp().getRequest<{ [USER_KEY]?: HelpdeskUser }>()[USER_KEY];
    return user?.scopes.includes(scope) ?? false;
  }
}
