import { Body, Controller, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Doc, NoContentRoute } from '../api-docs/decorators';
import { ActionRoute, CreateRoute, ReadRoute } from '../api-docs/routes';
import type { CookieOptions, Request, Response } from 'express';
import { Auth, CurrentPrincipal } from '../common/auth/auth.decorator';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { APP_CONFIG, AppConfig } from '../config/config';
import { DevelopersService } from './developers.service';
import { DeveloperLoginDto, SignupDto } from './dto/developer-auth.dto';
import { DeveloperLoginSchema, DeveloperSchema } from './developers.schemas';

const SESSION_COOKIES = {
  description: 'sid=…; HttpOnly; SameSite=Lax and csrftoken=…; SameSite=Lax',
  schema: { type: 'string' } as const,
};

@ApiTags('developer auth')
@Controller('developer')
export class DeveloperAuthController {
  constructor(
    private readonly developers: DevelopersService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Doc(
    'Create a developer account',
    'Signs up a developer (the person who manages workspaces, SCIM tokens, OAuth clients and SAML apps). The email is stored lower-cased and must be unused. Refused with 403 when DEVELOPER_SIGNUP_ENABLED=false. Then sign in with POST /developer/auth/login/.',
  )
  @CreateRoute(
    'auth/signup',
    DeveloperSchema,
    'The new developer (never the password)',
    [409, 'email_taken', 'A developer already has this email (in any letter case)'],
    [403, 'forbidden', 'Sign-up is turned off on this instance'],
  )
  @Auth('public')
  signup(@Body() dto: SignupDto) {
    return this.developers.signup(dto);
  }

  @Doc(
    'Sign in to the dashboard',
    'Checks email and password and starts a developer session: sets the HttpOnly `sid` cookie and a readable `csrftoken` cookie (both SameSite=Lax, Secure when COOKIE_SECURE, Domain=COOKIE_DOMAIN when set) and returns the CSRF token. Cookie-authenticated writes must echo it in X-CSRF-Token. For scripts, mint a bearer token with POST /developer/tokens/ instead.',
  )
  @ActionRoute(
    'auth/login',
    200,
    DeveloperLoginSchema,
    { description: 'Signed in; Set-Cookie carries sid and csrftoken', headers: { 'Set-Cookie': SESSION_COOKIES } },
    [401, 'invalid_credentials', 'Unknown email or wrong password (the same answer for both)'],
  )
  @Auth('public')
  async login(@Body() dto: DeveloperLoginDto, @Res({ passthrough: true }) res: Response) {
    const session = await this.developers.login(dto);
    const base: CookieOptions = { ...this.cookieScope(), sameSite: 'lax', secure: this.config.COOKIE_SECURE, expires: session.expiresAt };
    res.cookie('sid', session.sessionToken, { ...base, httpOnly: true });
    res.cookie('csrftoken', session.csrfToken, { ...base, httpOnly: false });
    return { developer: session.developer, csrf_token: session.csrfToken };
  }

  @Doc(
    'Sign out of the dashboard',
    'Ends the session of the `sid` cookie, if any, and clears both cookies. Always 204, also without a session.',
  )
  @NoContentRoute(Post('auth/logout'), 'Signed out; the cookies are cleared')
  @Auth('public')
  async logout(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<void> {
    await this.developers.logout(req.cookies?.sid as string | undefined);
    res.clearCookie('sid', this.cookieScope());
    res.clearCookie('csrftoken', this.cookieScope());
  }

  /** COOKIE_DOMAIN lets a dashboard on a sibling host (app.example.com) read the CSRF cookie. */
  private cookieScope(): CookieOptions {
    return { path: '/', ...(this.config.COOKIE_DOMAIN ? { domain: this.config.COOKIE_DOMAIN } : {}) };
  }

  @Doc(
    'Show the signed-in developer',
    'The developer behind the session cookie or bearer token: a cheap way for a dashboard to check it is signed in.',
  )
  @ReadRoute('me', DeveloperSchema, 'The caller')
  @Auth('developer')
  me(@CurrentPrincipal() principal: DeveloperPrincipal) {
    return this.developers.me(principal.developerId);
  }
}
