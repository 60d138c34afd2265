import { Body, Controller, Get, Inject, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Auth } from '../common/auth/auth.decorator';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { RateLimit, RateLimitGuard } from '../common/rate-limit/rate-limit.guard';
import { DomainError } from '../common/errors';
import { JsonSurface, PageSurface } from '../common/surface.decorators';
import { END_USER_ERRORS } from '../end-user-directory/end-users.errors';
import { clearSessionCookie, sessionCookie } from './browser-session-cookie';
import { BrowserSession, BrowserSessionsService } from './browser-sessions.service';
import { HostedSecurityService, SECURITY_PAGE, SecurityResult } from './hosted-security.service';
import { CSRF_COOKIE, LoginCsrf } from './login-csrf';
import { renderSecurityPage } from './views/security-page.view';

/** The hosted security page (HTML, no JavaScript): second factors of the browser's signed-in user. */
@ApiExcludeController()
@PageSurface()
@Controller('auth/security')
@Auth('public')
@UseGuards(RateLimitGuard)
export class HostedSecurityController {
  private readonly csrf: LoginCsrf;

  constructor(
    private readonly pages: HostedSecurityService,
    private readonly browser: BrowserSessionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.csrf = new LoginCsrf(config.AUTH_JWT_SECRET ?? '');
  }

  @Get()
  async show(@Query() query: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    const str = (v: unknown) => (typeof v === 'string' && v.length <= 200 ? v : null);
    const context = { clientId: str(query.client_id), workspaceId: str(query.workspace_id) };
    const token = this.csrfToken(req, res);
    this.send(res, await this.pages.show(await this.session(req), context), token);
  }

  @Post('totp')
  async startTotp(@Body() body: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.form(req, res, body, (session) => this.pages.startTotp(session));
  }

  @Post('totp/confirm')
  @RateLimit('mfa')
  async confirmTotp(
    @Body() body: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
    @ReqMeta() meta: RequestMeta,
  ): Promise<void> {
    return this.form(req, res, body, (session) => this.pages.confirmTotp(session, body?.code, meta));
  }

  @Post('totp/remove')
  @RateLimit('mfa')
  async removeTotp(
    @Body() body: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
    @ReqMeta() meta: RequestMeta,
  ): Promise<void> {
    return this.form(req, res, body, (session) => this.pages.removeTotp(session, body?.proof, meta));
  }

  @Post('recovery-codes')
  async regenerate(
    @Body() body: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
    @ReqMeta() meta: RequestMeta,
  ): Promise<void> {
    return this.form(req, res, body, (session) => this.pages.regenerate(session, meta));
  }

  /** Creation options for "Add a passkey" (JSON for the page's script; the form's CSRF token is required). */
  @Post('passkeys/options')
  @RateLimit('mfa')
  @JsonSurface()
  async passkeyOptions(@Body() body: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    res.setHeader('Cache-Control', 'no-store');
    if (!this.csrf.check((req.cookies as Record<string, unknown>)?.[CSRF_COOKIE], body?.csrf_token)) {
      throw new DomainError(END_USER_ERRORS.csrf_failed, 'This form has expired; reload the page');
    }
    const answer = await this.pages.passkeyOptions(await this.session(req));
    res.status(answer.status).json(answer.body);
  }

  @Post('passkeys')
  @RateLimit('mfa')
  async addPasskey(
    @Body() body: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
    @ReqMeta() meta: RequestMeta,
  ): Promise<void> {
    return this.form(req, res, body, (session) => this.pages.addPasskey(session, body?.name, body?.passkey_response, meta));
  }

  @Post('passkeys/rename')
  async renamePasskey(@Body() body: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.form(req, res, body, (session) => this.pages.renamePasskey(session, body?.passkey_id, body?.name));
  }

  @Post('passkeys/remove')
  async removePasskey(
    @Body() body: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
    @ReqMeta() meta: RequestMeta,
  ): Promise<void> {
    return this.form(req, res, body, (session) => this.pages.removePasskey(session, body?.passkey_id, meta));
  }

  private session(req: Request): Promise<BrowserSession | null> {
    return this.browser.sessionFor(sessionCookie(req));
  }

  /** A form POST: with a stale CSRF token the page is shown again and nothing changes. */
  private async form(
    req: Request,
    res: Response,
    body: Record<string, unknown>,
    action: (session: BrowserSession | null) => Promise<SecurityResult>,
  ): Promise<void> {
    const session = await this.session(req);
    const token = this.csrfToken(req, res);
    if (!this.csrf.check((req.cookies as Record<string, unknown>)?.[CSRF_COOKIE], body?.csrf_token)) {
      const again = await this.pages.show(session, { clientId: null, workspaceId: null }, { error: 'That form had expired. Try again.' });
      this.send(res, again, token);
      return;
    }
    this.send(res, await action(session), token);
  }

  private csrfToken(req: Request, res: Response): string {
    let cookie = (req.cookies as Record<string, unknown>)?.[CSRF_COOKIE];
    if (typeof cookie !== 'string' || cookie.length < 32) {
      cookie = this.csrf.newCookieValue();
      res.cookie(CSRF_COOKIE, cookie, { httpOnly: true, sameSite: 'lax', secure: this.config.COOKIE_SECURE, path: '/' });
    }
    return this.csrf.tokenFor(cookie as string);
  }

  /** Renders a SecurityResult: a redirect (to sign in first), or the page drawn with this browser's form token. */
  private send(res: Response, result: SecurityResult, csrfToken: string): void {
    res.setHeader('Cache-Control', 'no-store');
    if (result.kind === 'redirect') {
      if (result.clearSession) clearSessionCookie(res, this.config.COOKIE_SECURE);
      res.redirect(303, result.location);
      return;
    }
    res
      .status(result.status)
      .type('html')
      .send(renderSecurityPage({ ...result.view, csrfToken, base: SECURITY_PAGE }));
  }
}
