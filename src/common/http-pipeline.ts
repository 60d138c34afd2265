import cookieParser from 'cookie-parser';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/config';
import { jsonBodyGuard, urlAndCookieProblem } from './body-guard';
import type { EarlyAnswer } from './budget/refusal-before-routing';
import { resolveRequestId } from './request-context';

/** JSON media types we parse: SCIM clients send application/scim+json (RFC 7644 §3.1). */
const JSON_TYPES = ['application/json', 'application/scim+json', 'application/*+json'];

/**
 * The body limit of a SAML connection's ACS (decision 0948): an IdP's Response with many group attributes
 * (Entra ID with groups: 50-100 KiB of XML) is far beyond the 32 KiB of every other form. 384 KiB holds the
 * largest SAMLResponse the ACS reads (256 KiB of base64, MAX_SAML_RESPONSE_CHARS) percent-encoded, with its
 * RelayState; anything larger is still refused here with 413, before a byte of it is parsed.
 */
export const SAML_ACS_FORM_LIMIT_BYTES = 384 * 1024;
const FORM_LIMIT_BYTES = 32 * 1024;
const SAML_ACS_PATH = /^\/auth\/sso\/[^/?]+\/saml\/acs\/?(?:\?|$)/;

/** Probes are not logged: they would drown the log. */
const UNLOGGED = new Set(['/health/live', '/metrics']);

/**
 * Everything every request goes through before routing, as one middleware: request id,
 * security headers, cookies, body parsing and the body guard, and the access-log line.
 * One function instead of six Express layers, helmet's headers computed once, parsers
 * skipped when there is nothing to parse, and one log line from the root logger instead
 * of pino-http's child loggers: together they took the pipeline's cost from 2.2x to
 * about 1.2x a bare NestJS handler (BENCHMARKS.md). `answerEarly` (the request budget's refusal before
 * routing, decision 0612) runs after the request is identified and logged, before any parsing.
 */
export function httpPipeline(config: AppConfig, log: Logger, answerEarly?: EarlyAnswer): RequestHandler {
  const securityHeaders = staticSecurityHeaders(config);
  const cookies = cookieParser();
  const json = express.json({ limit: config.BODY_LIMIT, type: JSON_TYPES, strict: true });
  const form = express.urlencoded({ limit: FORM_LIMIT_BYTES, extended: false });
  const acsForm = express.urlencoded({ limit: SAML_ACS_FORM_LIMIT_BYTES, extended: false });
  const guard = jsonBodyGuard();
  const parseBody = (req: Request, res: Response, next: NextFunction) => {
    const formParser = SAML_ACS_PATH.test(req.url) ? acsForm : form;
    json(req, res, (err?: unknown) =>
      err ? next(err) : formParser(req, res, (err2?: unknown) => (err2 ? next(err2) : guard(req, res, next))),
    );
  };

  return (req, res, next) => {
    const requestId = resolveRequestId(req.headers['x-request-id']);
    (req as Request & { id: string }).id = requestId;
    res.setHeaders(securityHeaders);
    res.setHeader('X-Request-Id', requestId);
    if (!UNLOGGED.has(req.url)) logWhenDone(log, req, res, requestId);
    if (answerEarly?.(req, res)) return;
    if (req.headers.cookie) cookies(req, res, noop);
    else Object.assign(req, { cookies: Object.create(null), signedCookies: Object.create(null) });
    const refused = urlAndCookieProblem(req);
    if (refused) next(refused);
    else if (hasBody(req)) parseBody(req, res, next);
    else next();
  };
}

/**
 * helmet's headers depend only on configuration, so they are taken once from helmet
 * itself (same policy as calling it per request) and replayed on every response.
 */
export function staticSecurityHeaders(config: AppConfig): Map<string, string> {
  const headers = new Map<string, string>();
  const middleware = helmet({
    // The SAML auto-submit page replaces the CSP with its own (script nonce, no form-action: it posts cross-origin).
    contentSecurityPolicy: { useDefaults: true, directives: { 'form-action': ["'self'"] } },
    strictTransportSecurity: config.COOKIE_SECURE,
  });
  const recorder = { setHeader: (name: string, value: string) => headers.set(name, String(value)), removeHeader: noop };
  middleware({} as never, recorder as never, noop);
  return headers;
}

/** Same test as type-is's hasBody, which the body parsers apply before reading. */
function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || !Number.isNaN(Number.parseInt(req.headers['content-length'] ?? '', 10));
}

/** One JSON line per request: id, method, path (never the query string), status, latency. */
function logWhenDone(log: Logger, req: Request, res: Response, requestId: string): void {
  const started = performance.now();
  const method = req.method;
  const path = req.url.split('?')[0];
  // 'close' follows 'finish' on every response and is the only event of an aborted one: one listener serves both.
  res.once('close', () => {
    const status = res.statusCode;
    const entry = {
      req: { id: requestId, method, path },
      res: { statusCode: status },
      responseTime: Math.round(performance.now() - started),
    };
    if (status >= 500) log.error(entry, 'request errored');
    else if (status >= 400) log.warn(entry, 'request completed');
    else log.info(entry, res.writableFinished ? 'request completed' : 'request aborted');
  });
}

function noop(): void {}
