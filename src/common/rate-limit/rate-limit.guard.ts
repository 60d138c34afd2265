import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { requestMeta } from '../request-context';
import { AuthRateLimiter, RateLimitedAction } from './auth-rate-limiter';

const RATE_LIMIT = 'auth:rate-limit';

/** Mark a route as an abuse-limited sign-in action (counted per IP and per account). */
export const RateLimit = (action: RateLimitedAction) => SetMetadata(RATE_LIMIT, action);

/**
 * The account of a request: email plus the client or workspace it targets (from the JSON body or the
 * hosted form). Counting per account stops a slow, many-IP guessing of one password.
 */
export function accountKey(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const b = body as Record<string, unknown>;
  if (typeof b.email !== 'string' || !b.email) return null;
  const scope = typeof b.client_id === 'string' ? b.client_id : typeof b.workspace_id === 'string' ? b.workspace_id : '';
  return `${scope}\0${b.email.trim().toLowerCase()}`;
}

@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: AuthRateLimiter,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const action = this.reflector.get<RateLimitedAction | undefined>(RATE_LIMIT, ctx.getHandler());
    if (!action) return true;
    const req = ctx.switchToHttp().getRequest<Request>();
    await this.limiter.hit(action, requestMeta(req).ip, accountKey(req.body));
    return true;
  }
}
