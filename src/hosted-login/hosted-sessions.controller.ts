import { Body, Get, Inject, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { sendHostedRedirect, sessionCookie } from './browser-session-cookie';
import { BrowserSessionsService, type BrowserSession } from './browser-sessions.service';
import { HostedSessionsService, SESSIONS_PAGE, SessionsContext, SessionsResult } from './hosted-sessions.service';
import type { HostedRedirect } from './hosted-outcome';
import { type FormFields, PageForms } from './page-forms';
import { renderSessionsPage } from './views/sessions-page.view';
import { BrowserPages } from '../common/controller-kinds';

/** The hosted sessions page (HTML, no JavaScript): the new-sign-in alert mail links here. */
@BrowserPages('auth/sessions', null)
export class HostedSessionsController {
  constructor(
    private readonly pages: HostedSessionsService,
    private readonly browser: BrowserSessionsService,
    private readonly forms: PageForms,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  async show(@Query() query: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    const notice =
      query.signed_out === '1'
        ? 'The session is signed out. Its tokens no longer work.'
        : query.app_revoked === '1'
          ? 'The application can no longer use your account.'
          : null;
    const session = await this.browser.sessionFor(sessionCookie(req));
    const token = this.forms.token(req, res);
    this.send(res, await this.pages.show(session, contextOf(query), notice), token);
  }

  @Post('revoke')
  async revoke(
    @Body() body: FormFields,
    @Query() query: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
    @ReqMeta() meta: RequestMeta,
  ): Promise<void> {
    await this.checkedForm(body, query, req, res, (session) => this.pages.revoke(session, contextOf(query), body?.session_id, meta));
  }

  @Post('applications/revoke')
  async revokeApplication(
    @Body() body: FormFields,
    @Query() query: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
    @ReqMeta() meta: RequestMeta,
  ): Promise<void> {
    await this.checkedForm(body, query, req, res, (session) =>
      this.pages.revokeApplication(session, contextOf(query), body?.application_id, meta),
    );
  }

  /** A form of the page acts only with its CSRF token; an expired or forged one shows the list again with a fresh token. */
  private async checkedForm(
    body: FormFields,
    query: Record<string, unknown>,
    req: Request,
    res: Response,
    act: (session: BrowserSession | null) => Promise<HostedRedirect>,
  ): Promise<void> {
    const session = await this.browser.sessionFor(sessionCookie(req));
    if (!this.forms.posted(req)) {
      const token = this.forms.token(req, res);
      this.send(res, await this.pages.show(session, contextOf(query), 'That form had expired. Try again.'), token);
      return;
    }
    this.redirect(res, await act(session));
  }

  private send(res: Response, result: SessionsResult, csrfToken: string): void {
    if (result.kind === 'redirect') return this.redirect(res, result);
    res.setHeader('Cache-Control', 'no-store');
    const page = renderSessionsPage({
      ...result.view,
      csrfToken,
      revokeAction: `${SESSIONS_PAGE}revoke`,
      revokeApplicationAction: `${SESSIONS_PAGE}applications/revoke`,
    });
    res.status(result.status).type('html').send(page);
  }

  private redirect(res: Response, result: HostedRedirect): void {
    sendHostedRedirect(res, result, this.config.COOKIE_SECURE);
  }
}

function contextOf(query: Record<string, unknown>): SessionsContext {
  const str = (v: unknown, max: number) => (typeof v === 'string' && v.length <= max ? v : null);
  return { clientId: str(query.client_id, 200), workspaceId: str(query.workspace_id, 64) };
}
