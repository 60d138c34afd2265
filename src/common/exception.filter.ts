import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { allowedMethods } from './allowed-methods';
import { DomainError } from './errors';
import { renderErrorPage } from './html/error-page';

interface Problem {
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
  scimType?: string;
  retryAfterSeconds?: number;
  /** RFC 9110 §15.5.6: a 405 lists the methods the resource supports. */
  allow?: string[];
  headers?: Record<string, string>;
}

const HTTP_CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'service_unavailable',
};

/** Errors from node-postgres / TypeORM that mean "the database is unreachable", not "bad request". */
const DB_UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08003',
  '08006',
  '53300',
]);
function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: string; message?: string; driverError?: { code?: string } };
  const code = e?.code ?? e?.driverError?.code;
  if (code && DB_UNAVAILABLE_CODES.has(code)) return true;
  const msg = e?.message ?? '';
  return /Connection terminated|timeout exceeded when trying to connect|Driver not Connected|Client has encountered a connection error|Connection is not established/i.test(
    msg,
  );
}

/**
 * One filter for every surface: SCIM routes get the RFC 7644 §3.12 error body,
 * browser pages (SAML, hosted login) an HTML page, everything else {error, message}.
 * Unknown errors are logged once with their stack and never shown to the client.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Exceptions');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<Request & { id?: string }>();
    const res = ctx.getResponse<Response>();
    const problem = this.toProblem(exception, req);
    if (res.headersSent) {
      res.end();
      return;
    }
    if (problem.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(problem.retryAfterSeconds));
    if (problem.allow) res.setHeader('Allow', problem.allow.join(', '));
    for (const [name, value] of Object.entries(problem.headers ?? {})) res.setHeader(name, value);
    const path = req.path ?? req.url ?? '';
    if (isOAuthEndpoint(path)) {
      // RFC 6749 §5.2: {error, error_description}, never cached.
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Pragma', 'no-cache');
      res.status(problem.status).json({ error: oauthErrorCode(problem), error_description: problem.message });
      return;
    }
    if (path.startsWith('/scim/v2')) {
      res
        .status(problem.status)
        .type('application/scim+json')
        .send(
          JSON.stringify({
            schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
            status: String(problem.status),
            ...(problem.scimType ? { scimType: problem.scimType } : {}),
            detail: problem.message,
          }),
        );
      return;
    }
    if (isBrowserPage(path)) {
      res
        .status(problem.status)
        .type('text/html')
        .send(renderErrorPage(problem.status, titleFor(problem.status), problem.message, req.id, req.headers.referer, req.headers.host));
      return;
    }
    res.status(problem.status).json({
      error: problem.code,
      message: problem.message,
      ...(problem.details ? { details: problem.details } : {}),
      ...(problem.status >= 500 && req.id ? { request_id: req.id } : {}),
    });
  }

  private toProblem(exception: unknown, req: Request & { id?: string }): Problem {
    if (exception instanceof DomainError) {
      return {
        status: exception.status,
        code: exception.code,
        message: exception.message,
        details: exception.details,
        scimType: exception.scimType,
        retryAfterSeconds: exception.retryAfterSeconds,
        headers: exception.headers,
      };
    }
    if (exception instanceof ThrottlerException) {
      return { status: 429, code: 'rate_limited', message: 'Too many requests; retry later' };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      // Our own validation raises DomainError; a bare 400 HttpException is Nest wrapping a body-parser failure.
      if (status === 400) return { status, code: 'invalid_body', message: 'Request body is not valid JSON', scimType: 'invalidSyntax' };
      if (status === 413) return { status, code: 'payload_too_large', message: 'Request body is too large', scimType: 'tooLarge' };
      const code = HTTP_CODES[status] ?? (status >= 500 ? 'internal_error' : 'bad_request');
      if (status === 404 && isRouterNotFound(exception)) {
        // The path exists with other methods: 405 with Allow (RFC 9110 §15.5.6), not a 404 that says it does not exist.
        const allow = allowedMethods(req);
        if (allow.length) {
          const message = `${req.method} is not supported on ${req.path}; allowed: ${allow.join(', ')}`;
          return { status: 405, code: 'method_not_allowed', message, allow };
        }
      }
      const message = status === 404 ? `No route for ${req.method} ${req.path}` : firstMessage(exception);
      // Terminus (readiness) puts its per-check report in `details`: keep it for operators.
      const body = exception.getResponse() as { details?: Record<string, unknown> };
      const details = typeof body === 'object' && body?.details ? body.details : undefined;
      // Nest maps a body-parser SyntaxError to a BadRequestException before it gets here: on SCIM that is invalidSyntax.
      const scimType = status === 400 && (req.path ?? '').startsWith('/scim/v2') ? 'invalidSyntax' : undefined;
      return { status, code, message, details, scimType };
    }
    const bodyParser = exception as { type?: string; status?: number; expose?: boolean };
    if (typeof bodyParser?.type === 'string' && typeof bodyParser.status === 'number' && bodyParser.status < 500) {
      if (bodyParser.type === 'entity.too.large') {
        return { status: 413, code: 'payload_too_large', message: 'Request body is too large', scimType: 'tooLarge' };
      }
      return { status: 400, code: 'invalid_body', message: 'Request body is not valid JSON', scimType: 'invalidSyntax' };
    }
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn(`database unavailable: ${(exception as Error)?.message} (request ${req.id})`);
      return {
        status: 503,
        code: 'service_unavailable',
        message: 'The service is temporarily unavailable; retry shortly',
        retryAfterSeconds: 5,
      };
    }
    this.logger.error(`unhandled error on ${req.method} ${req.path} (request ${req.id})`, (exception as Error)?.stack ?? String(exception));
    return { status: 500, code: 'internal_error', message: 'Internal error' };
  }
}

/** Nest's answer when no route takes the method and path ("Cannot GET /x"), as opposed to a handler's own 404. */
function isRouterNotFound(exception: HttpException): boolean {
  return /^Cannot [A-Z-]+ /.test(firstMessage(exception));
}

function firstMessage(exception: HttpException): string {
  const body = exception.getResponse() as { message?: string | string[] } | string;
  if (typeof body === 'string') return body;
  const message = body?.message;
  return Array.isArray(message) ? message[0] : (message ?? exception.message);
}

/** The token endpoint and the endpoints beside it (revocation, introspection, UserInfo) answer errors as RFC 6749 §5.2 says. */
const OAUTH_JSON_ENDPOINTS = new Set(['/oauth/token', '/oauth/revoke', '/oauth/introspect', '/oauth/userinfo']);
function isOAuthEndpoint(path: string): boolean {
  return OAUTH_JSON_ENDPOINTS.has(path.endsWith('/') ? path.slice(0, -1) : path);
}

const OAUTH_ERRORS = new Set([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'temporarily_unavailable',
  'server_error',
  // RFC 6750 §3.1 (UserInfo) and RFC 7009 §2.2.1 (revocation).
  'invalid_token',
  'insufficient_scope',
  'unsupported_token_type',
]);

/** Our own codes (body parser, rate limit, outage) in RFC 6749's vocabulary. */
function oauthErrorCode(problem: Problem): string {
  if (OAUTH_ERRORS.has(problem.code)) return problem.code;
  if (problem.status === 401) return 'invalid_client';
  if (problem.status === 503 || problem.status === 429) return 'temporarily_unavailable';
  if (problem.status >= 500) return 'server_error';
  return 'invalid_request';
}

/** Pages a browser navigates to (SSO, hosted login) answer errors with HTML. */
export function isBrowserPage(path: string): boolean {
  return (
    path.startsWith('/saml/sso') ||
    path.startsWith('/auth/login') ||
    path.startsWith('/auth/sessions') ||
    path.startsWith('/oauth/authorize') ||
    path.startsWith('/oauth/logout')
  );
}

function titleFor(status: number): string {
  if (status === 404) return 'Page not found';
  if (status === 503) return 'Service unavailable';
  if (status >= 500) return 'Something went wrong';
  return 'We could not complete this request';
}
