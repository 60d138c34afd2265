import { applyDecorators, Body, Get, HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiQuery } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Doc, NoBody, ReturnsText } from '../../api-docs/decorators';
import { allowFormRedirectsTo } from '../../common/form-action';
import { ReqMeta, type RequestMeta } from '../../common/request-context';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { clearSessionCookie, sessionCookie } from '../../hosted-login/browser-session-cookie';
import { BrowserSessionsService } from '../../hosted-login/browser-sessions.service';
import { PageForms } from '../../hosted-login/page-forms';
import { LOGOUT_PARAMETER_LIMITS, LogoutOutcome, LogoutService } from './logout.service';
import { FORM } from '../../oauth/oauth.docs';
import { BrowserPages } from '../../common/controller-kinds';

/** RP-Initiated Logout 1.0 §2's parameters, with the bounds the service applies. */
const LOGOUT_PARAMETERS: Record<string, { type: 'string'; maxLength: number; description: string; enum?: string[] }> = {
  id_token_hint: {
    type: 'string',
    maxLength: LOGOUT_PARAMETER_LIMITS.id_token_hint,
    description: 'An ID token this server issued (it may have expired): who is signing out, from which application.',
  },
  client_id: {
    type: 'string',
    maxLength: LOGOUT_PARAMETER_LIMITS.client_id,
    description: "The application's client_id (needed with post_logout_redirect_uri when there is no id_token_hint).",
  },
  post_logout_redirect_uri: {
    type: 'string',
    maxLength: LOGOUT_PARAMETER_LIMITS.post_logout_redirect_uri,
    description: 'Where to return after signing out; registered exactly on the application.',
  },
  state: { type: 'string', maxLength: LOGOUT_PARAMETER_LIMITS.state, description: 'Returned unchanged with post_logout_redirect_uri.' },
  ui_locales: { type: 'string', maxLength: LOGOUT_PARAMETER_LIMITS.ui_locales, description: 'Accepted and ignored.' },
  logout_hint: { type: 'string', maxLength: LOGOUT_PARAMETER_LIMITS.logout_hint, description: 'Accepted and ignored.' },
};
const logoutQuery = () =>
  applyDecorators(
    ...Object.entries(LOGOUT_PARAMETERS).map(([name, { description, ...schema }]) =>
      ApiQuery({ name, required: false, description, schema }),
    ),
  );
const logoutForm = () =>
  applyDecorators(
    ApiConsumes(FORM),
    ApiBody({
      required: false,
      schema: {
        type: 'object',
        properties: {
          ...LOGOUT_PARAMETERS,
          confirm: { type: 'string', enum: ['1'], description: 'The confirmation page’s answer (with csrf_token).' },
          csrf_token: { type: 'string', maxLength: 512, description: 'The form token of the confirmation page.' },
        },
      },
    }),
  );

const DESCRIPTION =
  'OpenID Connect RP-Initiated Logout 1.0 (`end_session_endpoint`): `id_token_hint`, `client_id`, `post_logout_redirect_uri` (registered exactly on the application), `state`. Ends the browser session of the hosted login and the application sessions it led to, then redirects to `post_logout_redirect_uri` with `state` (or shows a signed-out page). Without an `id_token_hint` naming the signed-in person, the person confirms first.';

@BrowserPages('oauth/logout', 'openid')
export class LogoutController {
  constructor(
    private readonly logoutService: LogoutService,
    private readonly browser: BrowserSessionsService,
    private readonly forms: PageForms,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Doc('End session (RP-initiated logout)', DESCRIPTION)
  @NoBody(302, 'Signed out; back to post_logout_redirect_uri with state')
  @ReturnsText(200, 'text/html', 'The confirmation or signed-out page', '<!doctype html>…')
  @logoutQuery()
  @Get()
  async get(@Query() query: Record<string, unknown>, @Req() req: Request, @Res() res: Response, @ReqMeta() meta: RequestMeta) {
    await this.handle(query, false, req, res, meta);
  }

  @Doc('End session (form post)', DESCRIPTION)
  @NoBody(302, 'Signed out; back to post_logout_redirect_uri with state')
  @ReturnsText(200, 'text/html', 'The confirmation or signed-out page', '<!doctype html>…')
  @logoutForm()
  @Post()
  @HttpCode(200)
  async post(@Body() body: Record<string, unknown>, @Req() req: Request, @Res() res: Response, @ReqMeta() meta: RequestMeta) {
    // The confirmation form's answer counts only with its CSRF token (a cross-site form cannot sign a person out).
    const confirmed = body?.confirm === '1' && this.forms.posted(req);
    await this.handle(body, confirmed, req, res, meta);
  }

  private async handle(source: unknown, confirmed: boolean, req: Request, res: Response, meta: RequestMeta): Promise<void> {
    const current = await this.browser.sessionFor(sessionCookie(req));
    const outcome = await this.logoutService.logout(source, current, { confirmed, csrfToken: this.forms.token(req, res) }, meta);
    this.send(res, outcome);
  }

  private send(res: Response, outcome: LogoutOutcome): void {
    res.setHeader('Cache-Control', 'no-store');
    if (outcome.clearSession) clearSessionCookie(res, this.config.COOKIE_SECURE);
    if (outcome.kind === 'redirect') {
      res.redirect(302, outcome.location);
      return;
    }
    allowFormRedirectsTo(res, outcome.formTargets ?? []);
    res.status(outcome.status).type('html').send(outcome.html);
  }
}
