import { type CallHandler, type ExecutionContext, Header, Injectable, type NestInterceptor, UseInterceptors } from '@nestjs/common';
import type { Response } from 'express';
import { map, type Observable } from 'rxjs';
import { SCIM_CONTENT_TYPE } from '../scim.constants';

/**
 * Every SCIM response is application/scim+json (RFC 7644 §3.1). A handler decorator rather
 * than an interceptor: Nest then builds no rxjs pipeline per request. Errors get the type
 * from the exception filter.
 */
export const ScimJson = () => Header('Content-Type', `${SCIM_CONTENT_TYPE}; charset=utf-8`);

/**
 * Sends a created resource's meta.location as its Location header too (RFC 7644 §3.3), so the
 * create route that documents the header (ScimCreateRoute) is the one that sets it.
 */
@Injectable()
class LocationOfCreated implements NestInterceptor {
  intercept(ctx: ExecutionContext, next: CallHandler<{ meta: { location: string } }>): Observable<unknown> {
    const res = ctx.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((resource) => {
        res.location(resource.meta.location);
        return resource;
      }),
    );
  }
}

export const ScimLocation = () => UseInterceptors(LocationOfCreated);
