import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { USER_KEY, type HelpdeskUser } from './helpdesk-user.js';

/** The user {@link JwtAuthGuard} verified. */
export const CurrentUser = createParamDecorator(
  (_data: unknown, context: ExecutionContext): HelpdeskUser => context.switchToHttp().getRequest<{ [USER_KEY]: HelpdeskUser }>()[USER_KEY],
);
