import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { CookieOptions, Request, Response } from 'express';
import { Inject } from '@nestjs/common';
import { Auth } from '../../common/auth/auth.decorator';
import { renderErrorPage } from '../../common/html/error-page';
import { ReqMeta, type RequestMeta } from '../../common/request-context';
import { BrowserSessionsService, SESSION_COOKIE } from '../../end-users/hosted-login/browser-sessions.service';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { postToRedirectEncoding } from '../protocol/authn-request.parser';
import { PENDING_TTL_SECONDS } from './sso-requests.repository';
import { SamlSsoService, SsoOutcome } from './saml-sso.service';

export const TICKET_COOKIE = 'saml_sso';

/**
 * Browser endpoints of SP-initiated SSO. The query is read from the raw request,
 * not a DTO: SPs add parameters (SigAlg, Signature) that the spec says to ignore.
 */
@ApiTags('saml')
@Controller('saml/sso')
@Auth('public')
export class SamlSsoController {
  constructor(
    private readonly sso: SamlSsoService,
    private readonly browser: BrowserSessionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Start SSO (HTTP-Redirect binding): SAMLRequest (deflate + base64), optional RelayState' })
  @ApiProduces('text/html')
  async start(@Req() req: Request, @Res() res: Response, @ReqMeta() meta: RequestMeta): Promise<void> {
    // SigAlg and Signature are ignored (spec): only these two parameters are read.
    const { SAMLRequest: samlRequest, RelayState: relayState } = req.query;
    this.send(res, await this.sso.start({ samlRequest, relayState, sessionToken: sessionToken(req) }, meta), {
      referer: req.headers.referer,
      host: req.headers.host,
    });
  }

  /** HTTP-POST binding, as the metadata advertises: re-sent as a Redirect-binding GET so one path handles both. */
  @Post()
  @ApiOperation({ summary: 'Start SSO (HTTP-POST binding): form fields SAMLRequest (base64), optional RelayState' })
  startPost(@Req() req: Request, @Res() res: Response): void {
    const body = (req.body ?? {}) as { SAMLRequest?: unknown; RelayState?: unknown };
    const params = new URLSearchParams({ SAMLRequest: postToRedirectEncoding(body.SAMLRequest) });
    if (typeof body.RelayState === 'string' && body.RelayState !== '') params.set('RelayState', body.RelayState);
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(303, `/saml/sso/?${params.toString()}`);
  }

  @Get('finish')
  @ApiOperation({ summary: 'Resume SSO after the hosted login (the parked request is found by cookie)' })
  @ApiProduces('text/html')
  async finish(@Req() req: Request, @Res() res: Response, @ReqMeta() meta: RequestMeta): Promise<void> {
    this.send(res, await this.sso.finish(cookie(req, TICKET_COOKIE), sessionToken(req), meta));
  }

  private send(res: Response, outcome: SsoOutcome, referer?: { referer?: string; host?: string }): void {
    res.setHeader('Cache-Control', 'no-store');
    if (outcome.kind === 'login') {
      if (outcome.signOut) this.browser.clearCookie(res);
      if (outcome.ticket !== 'keep') res.cookie(TICKET_COOKIE, outcome.ticket, this.cookieOptions(PENDING_TTL_SECONDS * 1000));
      res.redirect(302, outcome.location);
      return;
    }
    if (outcome.ticket === 'clear') res.clearCookie(TICKET_COOKIE, this.cookieOptions());
    if (outcome.kind === 'page') {
      res
        .status(outcome.status)
        .type('html')
        .send(
          renderErrorPage(
            outcome.status,
            outcome.title,
            outcome.message,
            res.getHeader('X-Request-Id') as string | undefined,
            referer?.referer,
            referer?.host,
          ),
        );
      return;
    }
    // The page's own CSP (nonce, no form-action) replaces Helmet's app-wide one.
    for (const [name, value] of Object.entries(outcome.page.headers)) res.setHeader(name, value);
    res.status(200).send(outcome.page.html);
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
