import { Body, Get, Inject, Optional, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { RateLimit, RateLimitGuard } from '../common/rate-limit/rate-limit.guard';
import { clearContinuationCookie, sendHostedRedirect, sessionCookie, setContinuationCookie } from './browser-session-cookie';
import { BrowserSession, BrowserSessionsService } from './browser-sessions.service';
import { BrowserBinding, HostedInput, hostedInput, HOSTED_LOGIN_PATH } from './hosted-input';
import { HostedLoginService } from './hosted-login.service';
import { EXPIRED_FORM, SignInResult } from './hosted-outcome';
import { HostedPasswordResetService } from './hosted-password-reset.service';
import { HostedSignUpService } from './hosted-sign-up.service';
import { HostedVerificationService } from './hosted-verification.service';
import { drawSignInPage, drawSignInRefusal } from './views/sign-in-pages';
import { LOGIN_APP_NAMES, type LoginAppNames } from './login-app-names';
import { CSRF_COOKIE } from './login-csrf';
import { type FormFields, PageFormPost, PageForms } from './page-forms';
import { CONTINUATION_COOKIE } from './sign-in-continuation';
import { continuationTarget } from './continuation-target';
import { allowFormRedirectsTo } from '../common/form-action';
import { JsonSurface } from '../common/surface.decorators';
import { BrowserPages } from '../common/controller-kinds';

/**
 * Server-rendered sign-in pages (no JavaScript). Served at /auth/login/; when SAML_IDP_LOGIN_URL names
 * another path, HostedLoginModule rewrites that path here. The services answer a SignInResult; this
 * controller draws it (views/sign-in-pages.ts) with the request's form token and sets the cookies.
 */
@BrowserPages('auth/login', null)
@UseGuards(RateLimitGuard)
export class HostedLoginController {
  constructor(
    private readonly hosted: HostedLoginService,
    private readonly verification: HostedVerificationService,
    private readonly resets: HostedPasswordResetService,
    private readonly signUps: HostedSignUpService,
    private readonly browser: BrowserSessionsService,
    private readonly forms: PageForms,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(LOGIN_APP_NAMES) private readonly appNames?: LoginAppNames,
  ) {}

  @Get()
  async show(@Query() query: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    const token = this.forms.token(req, res);
    const input = await this.withAppName(req, hostedInput(query));
    allowFormRedirectsTo(res, [continuationTarget(input.next)]);
    this.send(res, await this.hosted.show(input, await this.signedIn(req)), input, token);
  }

  /** The step from the form to the company's identity provider an address was routed to (decision 0441). */
  @Get('sso')
  async companySignIn(@Query() query: Record<string, unknown>, @Res() res: Response): Promise<void> {
    const input = hostedInput(query);
    this.send(res, await this.hosted.companySignIn(input, query.connection), input, '');
  }

  /** The SAML SP's name when this sign-in continues its request (read from the SSO ticket cookie). */
  private async withAppName(req: Request, input: HostedInput): Promise<HostedInput> {
    if (!this.appNames) return input;
    const cookies = (req.cookies ?? {}) as Record<string, unknown>;
    return { ...input, appName: await this.appNames.nameFor(input.next, input.context.workspaceId ?? null, cookies) };
  }

  @Post()
  @RateLimit('login')
  async submit(@Body() body: FormFields, @Req() req: Request, @Res() res: Response, @ReqMeta() meta: RequestMeta): Promise<void> {
    return this.form(req, res, body, async (input) => this.hosted.submit(input, meta, await this.signedIn(req), this.binding(req)));
  }

  @Post('mfa')
  @RateLimit('mfa')
  async secondStep(@Body() body: FormFields, @Req() req: Request, @Res() res: Response, @ReqMeta() meta: RequestMeta): Promise<void> {
    return this.form(req, res, body, async (input) => this.hosted.secondStep(input, meta, await this.signedIn(req)));
  }

  /** WebAuthn options for a passwordless sign-in (JSON for the page's script; the form's CSRF token is required). */
  @Post('passkey/options')
  @RateLimit('login')
  @JsonSurface()
  @PageFormPost('This sign-in form has expired; reload the page')
  async passkeyOptions(@Body() body: FormFields, @Res() res: Response): Promise<void> {
    res.setHeader('Cache-Control', 'no-store');
    const answer = await this.hosted.passkeyOptions(hostedInput(body));
    res.status(answer.status).json(answer.body);
  }

  @Post('passkey')
  @RateLimit('login')
  async passkeySignIn(@Body() body: FormFields, @Req() req: Request, @Res() res: Response, @ReqMeta() meta: RequestMeta): Promise<void> {
    return this.form(req, res, body, async (input) => this.hosted.passkeySignIn(input, meta, await this.signedIn(req)));
  }

  @Post('verify')
  @RateLimit('verify')
  async verify(@Body() body: FormFields, @Req() req: Request, @Res() res: Response, @ReqMeta() meta: RequestMeta): Promise<void> {
    return this.form(req, res, body, async (input) => this.verification.verify(input, meta, await this.signedIn(req), this.binding(req)));
  }

  @Post('verify/resend')
  @RateLimit('resend')
  async resend(@Body() body: FormFields, @Req() req: Request, @Res() res: Response, @ReqMeta() meta: RequestMeta): Promise<void> {
    return this.form(req, res, body, (input) => this.verification.resend(input, meta));
  }

  @Get('signup')
  async showSignUp(@Query() query: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.page(req, res, query, (input) => this.signUps.show(input));
  }

  /** Create an account (applications with allow_signup), under the registration API's rate limits. */
  @Post('signup')
  @RateLimit('register')
  async signUp(@Body() body: FormFields, @Req() req: Request, @Res() res: Response, @ReqMeta() meta: RequestMeta): Promise<void> {
    return this.form(req, res, body, (input) => this.signUps.submit(input, meta, this.binding(req)));
  }

  @Get('reset')
  async showReset(@Query() query: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.page(req, res, query, (input) => this.resets.show(input));
  }

  @Post('reset')
  @RateLimit('reset')
  async requestReset(@Body() body: FormFields, @Req() req: Request, @Res() res: Response, @ReqMeta() meta: RequestMeta): Promise<void> {
    return this.form(req, res, body, (input) => this.resets.request(input, meta));
  }

  @Post('reset/confirm')
  @RateLimit('reset')
  async confirmReset(@Body() body: FormFields, @Req() req: Request, @Res() res: Response, @ReqMeta() meta: RequestMeta): Promise<void> {
    return this.form(req, res, body, (input) => this.resets.confirm(input, meta));
  }

  @Post('logout')
  async logout(@Body() body: FormFields, @Req() req: Request, @Res() res: Response, @ReqMeta() meta: RequestMeta): Promise<void> {
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

  /** A page's GET: the page `show` draws for the query, with this browser's form token. */
  private async page(
    req: Request,
    res: Response,
    query: Record<string, unknown>,
    show: (input: HostedInput) => Promise<SignInResult>,
  ): Promise<void> {
    const input = hostedInput(query);
    allowFormRedirectsTo(res, [continuationTarget(input.next)]);
    const token = this.forms.token(req, res);
    this.send(res, await show(input), input, token);
  }

  /** A form POST: the "expired form" page unless its CSRF token matches, else the page `action` produces. */
  private async form(
    req: Request,
    res: Response,
    body: Record<string, unknown>,
    action: (input: HostedInput) => Promise<SignInResult>,
  ): Promise<void> {
    const input = await this.withAppName(req, hostedInput(body));
    // The page this post answers (second factor, verification, reset) carries the same continuation.
    allowFormRedirectsTo(res, [continuationTarget(input.next)]);
    if (!this.forms.posted(req)) return this.refuse(req, res, input);
    const token = this.forms.token(req, res);
    this.send(res, await action(input), input, token);
  }

  /** A POST without a valid CSRF token: an "expired form" page and a fresh CSRF cookie. */
  private refuse(req: Request, res: Response, input: HostedInput): void {
    const token = this.forms.token(req, res, true);
    this.send(res, EXPIRED_FORM, input, token);
  }

  /** Renders a SignInResult: its cookies, then the redirect, the error page or the page drawn for this request. */
  private send(res: Response, result: SignInResult, input: HostedInput, csrfToken: string): void {
    if (result.continuation === 'clear') clearContinuationCookie(res, this.config.COOKIE_SECURE, HOSTED_LOGIN_PATH);
    else if (result.continuation) setContinuationCookie(res, result.continuation.set, this.config.COOKIE_SECURE, HOSTED_LOGIN_PATH);
    if (result.kind === 'redirect') return sendHostedRedirect(res, result, this.config.COOKIE_SECURE);
    res.setHeader('Cache-Control', 'no-store');
    const html = result.kind === 'refused' ? drawSignInRefusal(result, input) : drawSignInPage(result.view, { input, csrfToken });
    res.status(result.status).type('html').send(html);
  }
}
