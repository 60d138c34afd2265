import { Body, Controller, Get, Inject, Optional, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Auth } from '../../common/auth/auth.decorator';
import { ReqMeta, type RequestMeta } from '../../common/request-context';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { RateLimit, RateLimitGuard } from '../../common/rate-limit/rate-limit.guard';
import {
  clearContinuationCookie,
  clearSessionCookie,
  sessionCookie,
  setContinuationCookie,
  setSessionCookie,
} from './browser-session-cookie';
import { BrowserSession, BrowserSessionsService } from './browser-sessions.service';
import { BrowserBinding, HostedInput, HostedLoginService, HostedResult, hostedInput } from './hosted-login.service';
import { LOGIN_APP_NAMES, type LoginAppNames } from './login-app-names';
import { CSRF_COOKIE, LoginCsrf } from './login-csrf';
import { CONTINUATION_COOKIE } from './sign-in-continuation';
import { continuationTarget } from './continuation-target';
import { allowFormRedirectsTo } from '../../common/form-action';
import { PageSurface } from '../../common/surface.decorators';

/**
 * Server-rendered sign-in pages (no JavaScript). Served at /auth/login/; when SAML_IDP_LOGIN_URL names
 * another path, EndUsersModule rewrites that path here.
 */
@ApiExcludeController()
@PageSurface()
@Controller('auth/login')
@Auth('public')
@UseGuards(RateLimitGuard)
export class HostedLoginController {
  private readonly csrf: LoginCsrf;

  constructor(
    private readonly hosted: HostedLoginService,
    private readonly browser: BrowserSessionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(LOGIN_APP_NAMES) private readonly appNames?: LoginAppNames,
  ) {
    this.csrf = new LoginCsrf(config.AUTH_JWT_SECRET ?? '');
  }

  @Get()
  async show(@Query() query: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    const token = this.csrfToken(req, res);
    const input = await this.withAppName(req, hostedInput(query));
    allowFormRedirectsTo(res, [continuationTarget(input.next)]);
    this.send(res, await this.hosted.show(input, token, await this.signedIn(req)));
  }

  /** The SAML SP's name when this sign-in continues its request (read from the SSO ticket cookie). */
  private async withAppName(req: Request, input: HostedInput): Promise<HostedInput> {
    if (!this.appNames) return input;
    const cookies = (req.cookies ?? {}) as Record<string, unknown>;
    return { ...input, appName: await this.appNames.nameFor(input.next, input.context.workspaceId ?? null, cookies) };
  }

  @Post()
  @RateLimit('login')
  async submit(
    @Body() body: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
    @ReqMeta() meta: RequestMeta,
  ): Promise<void> {
    return this.form(req, res, body, async (input, token) =>
      this.hosted.submit(input, token, meta, await this.signedIn(req), this.binding(req)),
    );
  }

  @Post('mfa')
  @RateLimit('mfa')
  async secondStep(
    @Body() body: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
    @ReqMeta() meta: RequestMeta,
  ): Promise<void> {
    return this.form(req, res, body, async (input, token) => this.hosted.secondStep(input, token, meta, await this.signedIn(req)));
  }

  /** WebAuthn options for a passwordless sign-in (JSON for the page's script; the form's CSRF token is required). */
  @Post('passkey/options')
  @RateLimit('login')
  async passkeyOptions(@Body() body: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    res.setHeader('Cache-Control', 'no-store');
    if (!this.csrfValid(req, body)) {
      res.status(403).json({ error: 'csrf_failed', message: 'This sign-in form has expired; reload the page' });
      return;
    }
    const answer = await this.hosted.passkeyOptions(hostedInput(body));
    res.status(answer.status).json(answer.body);
  }

  @Post('passkey')
  @RateLimit('login')
  async passkeySignIn(
    @Body() body: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
    @ReqMeta() meta: RequestMeta,
  ): Promise<void> {
    return this.form(req, res, body, async (input, token) => this.hosted.passkeySignIn(input, token, meta, await this.signedIn(req)));
  }

  @Post('verify')
  @RateLimit('verify')
  async verify(
    @Body() body: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
    @ReqMeta() meta: RequestMeta,
  ): Promise<void> {
    return this.form(req, res, body, async (input, token) =>
      this.hosted.verify(input, token, meta, await this.signedIn(req), this.binding(req)),
    );
  }

  @Post('verify/resend')
  @RateLimit('resend')
  async resend(
    @Body() body: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
    @ReqMeta() meta: RequestMeta,
  ): Promise<void> {
    return this.form(req, res, body, (input, token) => this.hosted.resend(input, token, meta));
  }

  @Get('reset')
  async showReset(@Query() query: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    const input = hostedInput(query);
    allowFormRedirectsTo(res, [continuationTarget(input.next)]);
    this.send(res, await this.hosted.showReset(input, this.csrfToken(req, res)));
  }

  @Post('reset')
  @RateLimit('reset')
  async requestReset(
    @Body() body: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
    @ReqMeta() meta: RequestMeta,
  ): Promise<void> {
    return this.form(req, res, body, (input, token) => this.hosted.requestReset(input, token, meta));
  }

  @Post('reset/confirm')
  @RateLimit('reset')
  async confirmReset(
    @Body() body: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
    @ReqMeta() meta: RequestMeta,
  ): Promise<void> {
    return this.form(req, res, body, (input, token) => this.hosted.confirmReset(input, token, meta));
  }

  @Post('logout')
  async logout(
    @Body() body: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
    @ReqMeta() meta: RequestMeta,
  ): Promise<void> {
    return this.form(req, res, body, async (input) => this.hosted.signOut(await this.signedIn(req), meta, input));
  }

  /** The browser session this request's esid cookie names, if live. */
  private signedIn(req: Request): Promise<BrowserSession | null> {
    return this.browser.sessionFor(sessionCookie(req));
  }

  /** The cookies a sign-in continuation is read from and bound to (sign-in-continuation.ts). */
  private binding(req: Request): BrowserBinding {
    const cookies = (req.cookies ?? {}) as Record<string, unknown>;
    return { csrfCookie: cookies[CSRF_COOKIE], continuation: cookies[CONTINUATION_COOKIE] };
  }

  /** A form POST: the "expired form" page unless its CSRF token matches, else the page `action` produces. */
  private async form(
    req: Request,
    res: Response,
    body: Record<string, unknown>,
    action: (input: HostedInput, token: string) => Promise<HostedResult>,
  ): Promise<void> {
    const input = await this.withAppName(req, hostedInput(body));
    // The page this post answers (second factor, verification, reset) carries the same continuation.
    allowFormRedirectsTo(res, [continuationTarget(input.next)]);
    if (!this.csrfValid(req, body)) return this.refuse(req, res, this.hosted.expiredForm(input));
    this.send(res, await action(input, this.csrfToken(req, res)));
  }

  private csrfValid(req: Request, body: Record<string, unknown>): boolean {
    return this.csrf.check((req.cookies as Record<string, unknown>)?.[CSRF_COOKIE], body?.csrf_token);
  }

  /** The form token for this browser; sets the CSRF cookie when missing (or when asked to renew). */
  private csrfToken(req: Request, res: Response, renew = false): string {
    let cookie = (req.cookies as Record<string, unknown>)?.[CSRF_COOKIE];
    if (renew || typeof cookie !== 'string' || cookie.length < 32) {
      cookie = this.csrf.newCookieValue();
      res.cookie(CSRF_COOKIE, cookie, { httpOnly: true, sameSite: 'lax', secure: this.config.COOKIE_SECURE, path: '/' });
    }
    return this.csrf.tokenFor(cookie as string);
  }

  /** A POST without a valid CSRF token: an "expired form" page and a fresh CSRF cookie. */
  private refuse(req: Request, res: Response, result: HostedResult): void {
    this.csrfToken(req, res, true);
    this.send(res, result);
  }

  private send(res: Response, result: HostedResult): void {
    res.setHeader('Cache-Control', 'no-store');
    if (result.continuation === 'clear') clearContinuationCookie(res, this.config.COOKIE_SECURE, this.hosted.basePath);
    else if (result.continuation) setContinuationCookie(res, result.continuation.set, this.config.COOKIE_SECURE, this.hosted.basePath);
    if (result.kind === 'redirect') {
      if (result.sessionToken) setSessionCookie(res, result.sessionToken, this.config.COOKIE_SECURE);
      if (result.clearSession) clearSessionCookie(res, this.config.COOKIE_SECURE);
      res.redirect(303, result.location);
      return;
    }
    res.status(result.status).type('html').send(result.html);
  }
}
