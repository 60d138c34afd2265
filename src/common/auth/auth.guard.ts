import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard as PassportGuard, IAuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { DomainError } from '../errors';
import { AUTH_KIND, AuthKind } from './auth.decorator';
import { unauthorizedDetail } from './credential-hint';
import { DEVELOPER_SESSION_AUTHENTICATOR, DeveloperSessionAuthenticator, Principal } from './principal';
import { COMMON_ERRORS } from '../common.errors';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const STRATEGY: Record<Exclude<AuthKind, 'public'>, string> = {
  developer: 'developer-bearer',
  scim: 'scim',
  'end-user': 'end-user',
  ssf: 'ssf',
};

/**
 * The one global guard. Each route says how it authenticates with @Auth();
 * bearer credentials go through the Passport strategy of that kind, the
 * developer dashboard cookie through the developers module, which provides and
 * exports DEVELOPER_SESSION_AUTHENTICATOR to the app module that registers this guard.
 */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  private readonly passportGuards = new Map<string, IAuthGuard>();

  constructor(
    private readonly reflector: Reflector,
    @Inject(DEVELOPER_SESSION_AUTHENTICATOR) private readonly sessions: DeveloperSessionAuthenticator,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const kind = this.reflector.getAllAndOverride<AuthKind | undefined>(AUTH_KIND, [ctx.getHandler(), ctx.getClass()]);
    if (kind === 'public') return true;
    if (!kind) throw new DomainError(COMMON_ERRORS.unauthorized, 'Authentication required');
    const req = ctx.switchToHttp().getRequest<Request & { user?: Principal }>();
    if (kind === 'developer' && !req.headers.authorization && req.cookies?.sid) {
      req.user = await this.sessions.authenticateSession(
        String(req.cookies.sid),
        headerValue(req.headers['x-csrf-token']),
        UNSAFE.has(req.method),
      );
      return true;
    }
    await this.passportGuard(kind).canActivate(ctx);
    return true;
  }

  private passportGuard(kind: Exclude<AuthKind, 'public'>): IAuthGuard {
    const strategy = STRATEGY[kind];
    let guard = this.passportGuards.get(strategy);
    if (!guard) {
      const Guard = PassportGuard(strategy);
      guard = new (class extends Guard {
        override handleRequest<T>(err: unknown, user: T, _info: unknown, context: ExecutionContext): T {
          // A strategy errs only when it could not check (e.g. the database is down): that is a 503, not a 401.
          if (err) throw err;
          if (!user) {
            // Say which credential the route takes, and when the one sent belongs to another surface (decision 0032).
            const authorization = context.switchToHttp().getRequest<Request>().headers.authorization;
            throw new DomainError(COMMON_ERRORS.unauthorized, unauthorizedDetail(kind, authorization));
          }
          return user;
        }
      })();
      this.passportGuards.set(strategy, guard);
    }
    return guard;
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
