import { Body, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Doc, ReturnsText } from '../../api-docs/decorators';
import { allowFormRedirectsTo } from '../../common/form-action';
import { ReqMeta, type RequestMeta } from '../../common/request-context';
import { sessionCookie } from '../../hosted-login/browser-session-cookie';
import { BrowserSession, BrowserSessionsService } from '../../hosted-login/browser-sessions.service';
import { PageForms } from '../../hosted-login/page-forms';
import { renderErrorPage } from '../../common/html/error-page.view';
import { AuthorizeOutcome, AuthorizeService } from './authorize.service';
import { authorizeForm, authorizeQuery, authorizeResponses, consentForm } from './authorize.docs';
import { BrowserPages } from '../../common/controller-kinds';

/**
 * The authorization endpoint (OpenID Connect Core §3.1.2.1: GET and POST) and its consent answer.
 * A browser navigates here: answers are redirects or HTML pages, never JSON.
 */
@BrowserPages('oauth/authorize', 'openid')
export class AuthorizeController {
  constructor(
    private readonly authorizeService: AuthorizeService,
    private readonly browser: BrowserSessionsService,
    private readonly forms: PageForms,
  ) {}

  @Doc(
    'Authorization endpoint (OpenID Connect)',
    "Starts the authorization-code flow of an application (RFC 6749 §4.1, OpenID Connect Core §3.1.2): `response_type=code`, `client_id`, an exactly registered `redirect_uri` (loopback IP literals may use any port, RFC 8252 §7.3), `scope` with `openid` (and `profile`, `email`, `offline_access`), PKCE `code_challenge` with `code_challenge_method=S256` (required unless a confidential application set require_pkce false; its requests without PKCE then need `nonce`), `state`, `nonce`, `prompt` (`none`, `login`, `consent`), `max_age`, `login_hint`, `id_token_hint`, `acr_values`; unknown scopes are ignored. A browser without a fresh session for the application's workspace goes through the hosted login and comes back; a third-party application asks the person's consent once. The answer is a redirect to `redirect_uri` with `code`, `state` and `iss` (RFC 9207), or with `error` (RFC 6749 §4.1.2.1); without a known client and registered redirect URI, an HTML error page.",
  )
  @authorizeResponses()
  @authorizeQuery()
  @Get()
  async authorizeGet(@Query() query: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    this.send(res, await this.authorizeService.authorize(query, await this.signedIn(req), this.forms.token(req, res)));
  }

  @Doc('Authorization endpoint (form post)', 'The same request as GET /oauth/authorize, as an application/x-www-form-urlencoded body.')
  @authorizeResponses()
  @authorizeForm()
  @Post()
  @HttpCode(302)
  async authorizePost(@Body() body: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    this.send(res, await this.authorizeService.authorize(body, await this.signedIn(req), this.forms.token(req, res)));
  }

  @Doc(
    'Answer the consent screen',
    'The consent form of a third-party application posts here (`decision=allow` or `deny`, with the authorization request and the form token). Allow remembers the consent and continues the flow; deny answers the application `access_denied`.',
  )
  @authorizeResponses()
  @ReturnsText(403, 'text/html', 'The form token is missing or stale: an error page, nothing changes', '<!doctype html>…')
  @consentForm()
  @Post('consent')
  @HttpCode(302)
  async consent(
    @Body() body: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
    @ReqMeta() meta: RequestMeta,
  ): Promise<void> {
    if (!this.forms.posted(req)) {
      this.forms.token(req, res, true);
      res.setHeader('Cache-Control', 'no-store');
      res
        .status(403)
        .type('html')
        .send(
          renderErrorPage({
            status: 403,
            message: 'This form has expired or was opened in another browser. Start again from the application.',
          }),
        );
      return;
    }
    this.send(res, await this.authorizeService.decide(body, await this.signedIn(req), meta));
  }

  private signedIn(req: Request): Promise<BrowserSession | null> {
    return this.browser.sessionFor(sessionCookie(req));
  }

  private send(res: Response, outcome: AuthorizeOutcome): void {
    res.setHeader('Cache-Control', 'no-store');
    if (outcome.kind === 'redirect') {
      res.redirect(302, outcome.location);
      return;
    }
    allowFormRedirectsTo(res, outcome.formTargets ?? []);
    res.status(outcome.status).type('html').send(outcome.html);
  }
}
