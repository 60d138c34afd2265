import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { RequestMeta } from '../events/request-meta';

/** Declared with the events that carry it; imported from here by the code that builds it. */
export type { RequestMeta };

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A sane inbound X-Request-Id is kept (echoed on the response), otherwise one is minted. */
export function resolveRequestId(inbound: string | string[] | undefined): string {
  return typeof inbound === 'string' && REQUEST_ID.test(inbound) ? inbound : randomUUID();
}

/**
 * Express resolves req.ip from X-Forwarded-For only when 'trust proxy' is set
 * (TRUST_PROXY), so a client cannot spoof its address otherwise.
 */
export function requestMeta(req: Request): RequestMeta {
  const ua = req.headers['user-agent'];
  return {
    requestId: (req as Request & { id?: string }).id ?? randomUUID(),
    ip: normalizeIp(req.ip ?? req.socket?.remoteAddress ?? ''),
    userAgent: typeof ua === 'string' ? ua : '',
  };
}

function normalizeIp(ip: string): string {
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}

export const ReqMeta = createParamDecorator((_: unknown, ctx: ExecutionContext) => requestMeta(ctx.switchToHttp().getRequest<Request>()));
