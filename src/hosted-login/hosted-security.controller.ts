import { Body, Get, Inject, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { RateLimit, RateLimitGuard } from '../common/rate-limit/rate-limit.guard';
import { JsonSurface } from '../common/surface.decorators';
import { sendHostedRedirect, sessionCookie } from './browser-session-cookie';
import { BrowserSession, BrowserSessionsService } from './browser-sessions.service';
import { HostedSecurityService, SECURITY_PAGE, SecurityResult } from './hosted-security.service';
import { type FormFields, PageFormPost, PageForms } from './page-forms';
import { renderSecurityPage } from './views/security-page.view';
import { BrowserPages } from '../common/controller-kinds';

/** The hosted security page (HTML, no JavaScript): second factors of the browser's signed-in user. */
@BrowserPages('auth/security', null)
@UseGuards(RateLimitGuard)
export class HostedSecurityController {
  constructor(
    private readonly pages: HostedSecurityService,
    private readonly browser: BrowserSessionsService,
    private readonly forms: PageForms,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  async show(@Query() query: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    const str = (v: unknown) => (typeof v === 'string' && v.length <= 200 ? v : null);
    const context = { clientId: str(query.client_id), workspaceId: str(query.workspace_id) };
    const token = this.forms.token(req, res);
    this.send(res, await this.pages.show(await this.session(req), context), token);
  }

  @Post('totp')
  async startTotp(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.form(req, res, (session) => this.pages.startTotp(session));
  }

  @Post('totp/confirm')
  @RateLimit('mfa')
  async confirmTotp(@Body() body: FormFields, @Req() req: Request, @Res() res: Response, @ReqMeta() meta: RequestMeta): Promise<void> {
    return this.form(req, res, (session) => this.pages.confirmTotp(session, body?.code, meta));
  }

  @Post('totp/remove')
  @RateLimit('mfa')
  async removeTotp(@Body() body: FormFields, @Req() req: Request, @Res() res: Response, @ReqMeta() meta: RequestMeta): Promise<void> {
    return this.form(req, res, (session) => this.pages.removeTotp(session, body?.proof, meta));
  }

  @Post('recovery-codes')
  async regenerate(@Req() req: Request, @Res() res: Response, @ReqMeta() meta: RequestMeta): Promise<void> {
    return this.form(req, res, (session) => this.pages.regenerate(session, meta));
  }

  /** Creation options for "Add a passkey" (JSON for the page's script; the form's CSRF token is required). */
  @Post('passkeys/options')
  @RateLimit('mfa')
  @JsonSurface()
  @PageFormPost('This form has expired; reload the page')
  async passkeyOptions(@Req() req: Request, @Res() res: Response): Promise<void> {
    res.setHeader('Cache-Control', 'no-store');
    const answer = await this.pages.passkeyOptions(await this.session(req));
    res.status(answer.status).json(answer.body);
  }

  @Post('passkeys')
  @RateLimit('mfa')
  async addPasskey(@Body() body: FormFields, @Req() req: Request, @Res() res: Response, @ReqMeta() meta: RequestMeta): Promise<void> {
    return this.form(req, res, (session) => this.pages.addPasskey(session, body?.name, body?.passkey_response, meta));
  }

  @Post('passkeys/rename')
  async renamePasskey(@Body() body: FormFields, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.form(req, res, (session) => this.pages.renamePasskey(session, body?.passkey_id, body?.name));
  }

  @Post('passkeys/remove')
  async removePasskey(@Body() body: FormFields, @Req() req: Request, @Res() res: Response, @ReqMeta() meta: RequestMeta): Promise<void> {
    return this.form(req, res, (session) => this.pages.removePasskey(session, body?.passkey_id, meta));
  }

  private session(req: Request): Promise<BrowserSession | null> {
    return this.browser.sessionFor(sessionCookie(req));
  }

  /** A form POST: with a stale CSRF token the page is shown again and nothing changes. */
  private async form(req: Request, res: Response, action: (session: BrowserSession | null) => Promise<SecurityResult>): Promise<void> {
    const session = await this.session(req);
    const token = this.forms.token(req, res);
    if (!this.forms.posted(req)) {
      const again = await this.pages.show(session, { clientId: null, workspaceId: null }, { error: 'That form had expired. Try again.' });
      this.send(res, again, token);
      return;
    }
    this.send(res, await action(session), token);
  }

  /** Renders a SecurityResult: a redirect (to sign in first), or the page drawn with this browser's form token. */
  private send(res: Response, result: SecurityResult, csrfToken: string): void {
    if (result.kind === 'redirect') return sendHostedRedirect(res, result, this.config.COOKIE_SECURE);
    res.setHeader('Cache-Control', 'no-store');
    res
      .status(result.status)
      .type('html')
      .send(renderSecurityPage({ ...result.view, csrfToken, base: SECURITY_PAGE }));
  }
}
