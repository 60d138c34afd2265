import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Injectable, Logger } from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { allowedMethods } from './allowed-methods';
import { COMMON_ERRORS } from './common.errors';
import type { ErrorSurface } from './error-surface';
import { DomainError, ErrorCode } from './errors';
import { errorPageTitle, renderErrorPage } from './html/error-page';
import { RouteSurfaces } from './route-surfaces';

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

type AppRequest = Request & { id?: string };

/** The code a Nest HttpException of this status is answered with (every one from COMMON_ERRORS). */
const CODE_OF_NEST_STATUS: Record<number, ErrorCode> = {
  400: COMMON_ERRORS.bad_request,
  401: COMMON_ERRORS.unauthorized,
  403: COMMON_ERRORS.forbidden,
  404: COMMON_ERRORS.not_found,
  405: COMMON_ERRORS.method_not_allowed,
  406: COMMON_ERRORS.not_acceptable,
  409: COMMON_ERRORS.conflict,
  413: COMMON_ERRORS.payload_too_large,
  415: COMMON_ERRORS.unsupported_media_type,
  429: COMMON_ERRORS.rate_limited,
  503: COMMON_ERRORS.service_unavailable,
};

/** A catalog entry as a problem with its own status. */
const problemOf = (error: ErrorCode, message: string, extra: Partial<Problem> = {}): Problem => ({
  status: error.status,
  code: error.code,
  message,
  ...extra,
});

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

const logger = new Logger('Exceptions');

/**
 * Any thrown value as the problem every surface renders. Unknown errors are logged once with
 * their stack and never shown to the client.
 */
function toProblem(exception: unknown, req: AppRequest): Problem {
  if (exception instanceof DomainError) {
    return problemOf(exception.error, exception.message, {
      details: exception.details,
      scimType: exception.scimType,
      retryAfterSeconds: exception.retryAfterSeconds,
      headers: exception.headers,
    });
  }
  if (exception instanceof ThrottlerException) {
    return problemOf(COMMON_ERRORS.rate_limited, 'Too many requests; retry later');
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    // Our own validation raises DomainError; a bare 400 HttpException is Nest wrapping a body-parser failure.
    if (status === 400) return problemOf(COMMON_ERRORS.invalid_body, 'Request body is not valid JSON', { scimType: 'invalidSyntax' });
    if (status === 413) return problemOf(COMMON_ERRORS.payload_too_large, 'Request body is too large', { scimType: 'tooLarge' });
    if (status === 404 && isRouterNotFound(exception)) {
      // The path exists with other methods: 405 with Allow (RFC 9110 §15.5.6), not a 404 that says it does not exist.
      const allow = allowedMethods(req);
      if (allow.length) {
        return problemOf(COMMON_ERRORS.method_not_allowed, `${req.method} is not supported on ${req.path}; allowed: ${allow.join(', ')}`, {
          allow,
        });
      }
    }
    const code = CODE_OF_NEST_STATUS[status]?.code ?? (status >= 500 ? COMMON_ERRORS.internal_error.code : COMMON_ERRORS.bad_request.code);
    const message = status === 404 ? `No route for ${req.method} ${req.path}` : firstMessage(exception);
    // Terminus (readiness) puts its per-check report in `details`: keep it for operators.
    const body = exception.getResponse() as { details?: Record<string, unknown> };
    const details = typeof body === 'object' && body?.details ? body.details : undefined;
    return { status, code, message, details };
  }
  const bodyParser = exception as { type?: string; status?: number; expose?: boolean; limit?: unknown };
  if (typeof bodyParser?.type === 'string' && typeof bodyParser.status === 'number' && bodyParser.status < 500) {
    if (bodyParser.type === 'entity.too.large') {
      // The parser's own limit, so a refused sender learns what fits (the ACS's is not every form's).
      const limit = typeof bodyParser.limit === 'number' ? ` (the limit here is ${Math.floor(bodyParser.limit / 1024)} KiB)` : '';
      return problemOf(COMMON_ERRORS.payload_too_large, `Request body is too large${limit}`, { scimType: 'tooLarge' });
    }
    return problemOf(COMMON_ERRORS.invalid_body, 'Request body is not valid JSON', { scimType: 'invalidSyntax' });
  }
  if (isDatabaseUnavailable(exception)) {
    logger.warn(`database unavailable: ${(exception as Error)?.message} (request ${req.id})`);
    return problemOf(COMMON_ERRORS.service_unavailable, 'The service is temporarily unavailable; retry shortly', {
      retryAfterSeconds: 5,
    });
  }
  logger.error(`unhandled error on ${req.method} ${req.path} (request ${req.id})`, (exception as Error)?.stack ?? String(exception));
  return problemOf(COMMON_ERRORS.internal_error, 'Internal error');
}

/** Writes the problem in the surface's format, with the headers it carries (also for answers given before routing). */
export function answerError(surface: ErrorSurface, exception: unknown, req: AppRequest, res: Response): void {
  const problem = toProblem(exception, req);
  if (res.headersSent) {
    res.end();
    return;
  }
  if (problem.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(problem.retryAfterSeconds));
  if (problem.allow) res.setHeader('Allow', problem.allow.join(', '));
  for (const [name, value] of Object.entries(problem.headers ?? {})) res.setHeader(name, value);
  WRITERS[surface](problem, req, res);
}

const WRITERS: Record<ErrorSurface, (problem: Problem, req: AppRequest, res: Response) => void> = {
  json: (problem, req, res) => {
    res.status(problem.status).json({
      error: problem.code,
      message: problem.message,
      ...(problem.details ? { details: problem.details } : {}),
      ...(problem.status >= 500 && req.id ? { request_id: req.id } : {}),
    });
  },
  scim: (problem, _req, res) => {
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
  },
  oauth: (problem, _req, res) => {
    // RFC 6749 §5.2: {error, error_description}, never cached.
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Pragma', 'no-cache');
    res.status(problem.status).json({ error: oauthErrorCode(problem), error_description: problem.message });
  },
  page: (problem, req, res) => {
    res
      .status(problem.status)
      .type('text/html')
      .send(
        renderErrorPage(problem.status, errorPageTitle(problem.status), problem.message, req.id, req.headers.referer, req.headers.host),
      );
  },
};

/**
 * The filter a surface decorator binds to its controllers (`@ScimSurface()`, `@OAuthSurface()`,
 * `@PageSurface()`, src/common/surface.decorators.ts), one instance per surface: Nest gives
 * route-scoped filters precedence over the global one, so every error of those routes (guards,
 * pipes, interceptors, the handler) is answered in the controller's format.
 */
@Catch()
export class SurfaceExceptionFilter implements ExceptionFilter {
  constructor(private readonly surface: ErrorSurface) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    answerError(this.surface, exception, ctx.getRequest<AppRequest>(), ctx.getResponse<Response>());
  }
}

/**
 * The global filter. A routed error reaches it only from a controller that declares no surface:
 * JSON. An error raised before any handler was chosen (the body parser, the URL guard, Nest's
 * "no route" 404) has no controller, so the surface comes from the route table (RouteSurfaces):
 * the route the path reaches, else the controller that owns the paths below its mount, else JSON.
 */
@Catch()
@Injectable()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(private readonly routes: RouteSurfaces) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<AppRequest>();
    // Express sets req.route when it hands the request to a route's handler.
    const surface = req.route ? 'json' : this.routes.forUnroutedRequest(req);
    answerError(surface, exception, req, ctx.getResponse<Response>());
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
