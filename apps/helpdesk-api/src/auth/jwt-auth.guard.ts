import { Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { jwtVerify } from 'jose';
import { helpdeskSecret } from '../config/helpdesk-secret.js';
import { USER_KEY, type HelpdeskUser } from './helpdesk-user.js';

/** The helpdesk's own REST authentication: an HS256 Bearer token with `sub`, `tenant_id` and `scope`. */
@Injectable()
export class JwtAuthGuard implements CanActivate {
  private readonly key = new TextEncoder().encode(helpdeskSecret());

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined>; [USER_KEY]?: HelpdeskUser }>();
    const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (!token) throw new UnauthorizedException('Missing bearer token');
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || typeof payload.tenant_id !== 'string') throw new Error('claims');
      const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [];
      request[USER_KEY] = { sub: payload.sub, tenantId: payload.tenant_id, scopes };
      return true;
    } catch {
      throw new UnauthorizedException('Invalid bearer token');
    }
  }
}
