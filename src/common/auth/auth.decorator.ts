import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiSecurity } from '@nestjs/swagger';
import type { Request } from 'express';
import type { Principal } from './principal';

export type AuthKind = 'developer' | 'scim' | 'end-user' | 'ssf' | 'public';
export const AUTH_KIND = 'auth:kind';

/** How a route authenticates. Routes without it are refused (default deny). */
export function Auth(kind: AuthKind) {
  const docs = {
    developer: [ApiCookieAuth('developer-session'), ApiBearerAuth('developer-token')],
    scim: [ApiBearerAuth('scim-token')],
    'end-user': [ApiBearerAuth('end-user-token')],
    ssf: [ApiBearerAuth('ssf-receiver-token')],
    public: [ApiSecurity({})],
  }[kind];
  return applyDecorators(SetMetadata(AUTH_KIND, kind), ...docs);
}

export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext) => {
  return ctx.switchToHttp().getRequest<Request & { user?: Principal }>().user;
});
