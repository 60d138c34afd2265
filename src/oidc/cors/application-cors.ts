import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { OidcRepository } from '../oidc.repository';

/** Public documents: any origin may read them (no credentials are involved). */
export const PUBLIC_DOCUMENT_PATHS = ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server', '/oauth/jwks'];
/** What a browser application calls with a token or a client id: its registered origins only. */
export const APPLICATION_API_PATHS = ['/oauth/token', '/oauth/userinfo', '/oauth/revoke', '/oauth/introspect'];

const ORIGIN = /^https?:\/\/[a-z0-9.-]+(?::\d{1,5})?$|^http:\/\/\[::1\](?::\d{1,5})?$/i;
const LOOPBACK = /^http:\/\/(127\.0\.0\.1|\[::1\])(?::\d{1,5})?$/i;
const CACHE_MS = 30_000;
const CACHE_ENTRIES = 1000;
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * CORS for the OpenID provider's browser-facing endpoints (decision 0932): discovery and the JWKS
 * for every origin; token, UserInfo, revocation and introspection for the origins of the
 * applications' registered redirect URIs (a single-page app is served from where it gets its
 * code). Never Access-Control-Allow-Credentials: these endpoints take tokens and client ids, not
 * cookies. Preflights are answered here with 204.
 */
@Injectable()
export class ApplicationCors implements NestMiddleware {
  /** origin -> [allowed, until epoch ms]: a registered origin is looked up once per 30 s, not per request. */
  private readonly known = new Map<string, [boolean, number]>();

  constructor(private readonly repository: OidcRepository) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const origin = req.headers.origin;
    if (typeof origin !== 'string' || !ORIGIN.test(origin)) return next();
    const path = req.originalUrl.split('?')[0].replace(/\/$/, '');
    const isPublic = PUBLIC_DOCUMENT_PATHS.includes(path);
    if (!isPublic && !APPLICATION_API_PATHS.includes(path)) return next();
    res.vary('Origin');
    const answer = (allowed: boolean) => {
      if (allowed) allow(res, isPublic ? '*' : origin);
      if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
        if (allowed) preflight(res, isPublic);
        res.status(204).end();
        return;
      }
      next();
    };
    if (isPublic) return answer(true);
    this.registered(origin.toLowerCase()).then(answer, next);
  }

  private async registered(origin: string): Promise<boolean> {
    const now = Date.now();
    const cached = this.known.get(origin);
    if (cached && cached[1] > now) return cached[0];
    const allowed = await this.repository.redirectUriWithPrefix(prefixesOf(origin));
    if (this.known.size >= CACHE_ENTRIES) this.known.clear();
    this.known.set(origin, [allowed, now + CACHE_MS]);
    return allowed;
  }
}

/** The redirect URIs an origin serves begin with it and then a path, a query or (loopback only: any port, RFC 8252 §7.3) a port. */
function prefixesOf(origin: string): string[] {
  const loopback = LOOPBACK.exec(origin);
  if (loopback) return [`http://${loopback[1]}/`, `http://${loopback[1]}:`, `http://${loopback[1]}?`];
  return [`${origin}/`, `${origin}?`];
}

function allow(res: Response, origin: string): void {
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Expose-Headers', 'WWW-Authenticate, X-Request-Id, Retry-After');
}

function preflight(res: Response, isPublic: boolean): void {
  res.setHeader('Access-Control-Allow-Methods', isPublic ? 'GET' : 'GET, POST');
  res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, X-Request-Id');
  res.setHeader('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS));
}
