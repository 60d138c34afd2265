import { Get, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiQuery } from '@nestjs/swagger';
import { Doc, NoBody, ReturnsText } from '../../api-docs/decorators';
import { PageErrors, type PageErrorSpec } from '../../api-docs/routes';
import type { CookieOptions, Request, Response } from 'express';
import { Inject } from '@nestjs/common';
import { errorPageTitle, renderErrorPage } from '../../common/html/error-page';
import { ReqMeta, type RequestMeta } from '../../common/request-context';
import { clearSessionCookie, SESSION_COOKIE } from '../../hosted-login/browser-session-cookie';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { RateLimit, RateLimitGuard } from '../../common/rate-limit/rate-limit.guard';
import { renderAutoPostPage } from '../protocol/post-form.page';
import { PENDING_TTL_SECONDS } from './sso-requests.repository';
import { SamlSsoService } from './saml-sso.service';
import type { SsoOutcome, SsoRefused } from './sso-outcome';
import { BrowserPages } from '../../common/controller-kinds';

export const TICKET_COOKIE = 'saml_sso';

/**
 * Browser endpoints of SP-initiated SSO. The query is read from the raw request,
 * not a DTO: SPs add parameters (SigAlg, Signature) that the spec says to ignore.
 * SamlSsoService answers an SsoOutcome; this controller renders it: the auto-submit
 * page of a Response (assertion or status), a redirect to the hosted login, or an error page.
 */
const SP_REFUSED: PageErrorSpec = [403, 'the SP is inactive or the user may not use it'];
const NOT_CONFIGURED: PageErrorSpec = [503, 'SAML is not configured'];
const TOO_MANY: PageErrorSpec = [429, 'too many SSO requests from this IP; Retry-After says when to retry'];

@BrowserPages('saml/sso', 'saml')
@UseGuards(RateLimitGuard)
export class SamlSsoController {
  constructor(
    private readonly sso: SamlSsoService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @RateLimit('saml_sso')
  @Doc(
    'Start SSO (HTTP-Redirect binding)',
    'Browser endpoint of SP-initiated sign-in. Query: SAMLRequest (deflate + base64), optional RelayState; SigAlg and Signature are ignored. With an end-user browser session, answers the page that posts the signed SAML Response to the SP; without one, parks the request and redirects to the hosted login.',
  )
  @ApiQuery({ name: 'SAMLRequest', required: true, schema: { type: 'string' }, description: 'AuthnRequest, deflated then base64-encoded' })
  @ApiQuery({ name: 'RelayState', required: false, schema: { type: 'string' }, description: 'Returned to the SP unchanged' })
  @ReturnsText(200, 'text/html', 'Auto-submitting form that posts SAMLResponse (and RelayState) to the SP ACS URL')
  @NoBody(302, 'No signed-in end user: to the hosted login, which comes back to /saml/sso/finish/')
  @PageErrors(
    [400, 'the AuthnRequest is missing, malformed, from an unknown SP, or its ACS URL is not the registered one'],
    SP_REFUSED,
    NOT_CONFIGURED,
    TOO_MANY,
  )
  async start(@Req() req: Request, @Res() res: Response, @ReqMeta() meta: RequestMeta): Promise<void> {
    // SigAlg and Signature are ignored (spec): only these two parameters are read.
    const { SAMLRequest: samlRequest, RelayState: relayState } = req.query;
    this.send(req, res, await this.sso.start({ samlRequest, relayState, sessionToken: sessionToken(req) }, meta));
  }

  /** HTTP-POST binding, as the metadata advertises: re-sent as a Redirect-binding GET so one path handles both. */
  @Post()
  @RateLimit('saml_sso')
  @Doc(
    'Start SSO (HTTP-POST binding)',
    'Form fields SAMLRequest (base64, not deflated) and optional RelayState, as the metadata advertises. Re-sent as a Redirect-binding GET so one path handles both.',
  )
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({
    schema: { type: 'object', required: ['SAMLRequest'], properties: { SAMLRequest: { type: 'string' }, RelayState: { type: 'string' } } },
  })
  @NoBody(303, 'To GET /saml/sso/ with the same request')
  @PageErrors([400, 'SAMLRequest is missing, not base64, or not a readable AuthnRequest'], NOT_CONFIGURED, TOO_MANY)
  async startPost(@Req() req: Request, @Res() res: Response, @ReqMeta() meta: RequestMeta): Promise<void> {
    const body = (req.body ?? {}) as { SAMLRequest?: unknown; RelayState?: unknown };
    const outcome = await this.sso.startPost({ samlRequest: body.SAMLRequest, relayState: body.RelayState }, meta);
    res.setHeader('Cache-Control', 'no-store');
    if (outcome.kind === 'refused') return this.errorPage(req, res, outcome);
    res.redirect(303, outcome.location);
  }

  @Get('finish')
  @RateLimit('saml_sso')
  @Doc(
    'Resume SSO after the hosted login',
    'Where the hosted login sends the browser back: the parked request is found by its cookie (saml_sso) and answered as GET /saml/sso/ would.',
  )
  @ReturnsText(200, 'text/html', 'Auto-submitting form that posts SAMLResponse to the SP ACS URL')
  @NoBody(302, 'Still no signed-in end user: back to the hosted login')
  @PageErrors([400, 'no parked request (expired or already used)'], SP_REFUSED, TOO_MANY)
  async finish(@Req() req: Request, @Res() res: Response, @ReqMeta() meta: RequestMeta): Promise<void> {
    this.send(req, res, await this.sso.finish(cookie(req, TICKET_COOKIE), sessionToken(req), meta));
  }

  private send(req: Request, res: Response, outcome: SsoOutcome): void {
    res.setHeader('Cache-Control', 'no-store');
    if (outcome.kind === 'login') {
      if (outcome.signOut) clearSessionCookie(res, this.config.COOKIE_SECURE);
      if (outcome.ticket !== 'keep') res.cookie(TICKET_COOKIE, outcome.ticket, this.cookieOptions(PENDING_TTL_SECONDS * 1000));
      res.redirect(302, outcome.location);
      return;
    }
    if (outcome.ticket === 'clear') res.clearCookie(TICKET_COOKIE, this.cookieOptions());
    if (outcome.kind === 'refused') return this.errorPage(req, res, outcome);
    // An assertion or a status: the HTTP-POST binding's page. Its own CSP (nonce, no form-action) replaces Helmet's app-wide one.
    const page = renderAutoPostPage({
      action: outcome.post.acsUrl,
      samlResponse: outcome.post.samlResponse,
      relayState: outcome.post.relayState,
    });
    for (const [name, value] of Object.entries(page.headers)) res.setHeader(name, value);
    res.status(200).send(page.html);
  }

  /** The error page, with a way back to the site that sent the browser (its Referer). */
  private errorPage(req: Request, res: Response, refused: SsoRefused): void {
    const requestId = res.getHeader('X-Request-Id') as string | undefined;
    const title = refused.title ?? errorPageTitle(refused.status);
    res
      .status(refused.status)
      .type('html')
      .send(renderErrorPage(refused.status, title, refused.message, requestId, req.headers.referer, req.headers.host));
  }

  /** Lax: the browser returns from the login page by a top-level GET, which carries it. */
  private cookieOptions(maxAge?: number): CookieOptions {
    // Path '/': the hosted login reads it too, to name the SP the user is signing in to (sp-login-names.ts).
    return { httpOnly: true, sameSite: 'lax', secure: this.config.COOKIE_SECURE, path: '/', ...(maxAge ? { maxAge } : {}) };
  }
}

function cookie(req: Request, name: string): string | undefined {
  const value: unknown = (req.cookies as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** The hosted-login session token (cookie esid): who is signed in in this browser. */
const sessionToken = (req: Request) => cookie(req, SESSION_COOKIE);
