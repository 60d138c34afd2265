import { Body, Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { CookieOptions, Request, Response } from 'express';
import { Auth, CurrentPrincipal } from '../common/auth/auth.decorator';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { APP_CONFIG, AppConfig } from '../config/config';
import { DevelopersService } from './developers.service';
import { LoginDto, SignupDto } from './dto/developer-auth.dto';

@ApiTags('developer auth')
@Controller('developer')
export class DeveloperAuthController {
  constructor(
    private readonly developers: DevelopersService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('auth/signup')
  @Auth('public')
  signup(@Body() dto: SignupDto) {
    return this.developers.signup(dto);
  }

  @Post('auth/login')
  @Auth('public')
  @HttpCode(200)
  async login(@Body() dto: LoginDto, @Res({ passthrough: true }) res: Response) {
    const session = await this.developers.login(dto);
    const base: CookieOptions = { ...this.cookieScope(), sameSite: 'lax', secure: this.config.COOKIE_SECURE, expires: session.expiresAt };
    res.cookie('sid', session.sessionToken, { ...base, httpOnly: true });
    res.cookie('csrftoken', session.csrfToken, { ...base, httpOnly: false });
    return { developer: session.developer, csrf_token: session.csrfToken };
  }

  @Post('auth/logout')
  @Auth('public')
  @HttpCode(204)
  async logout(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<void> {
    await this.developers.logout(req.cookies?.sid as string | undefined);
    res.clearCookie('sid', this.cookieScope());
    res.clearCookie('csrftoken', this.cookieScope());
  }

  /** COOKIE_DOMAIN lets a dashboard on a sibling host (app.example.com) read the CSRF cookie. */
  private cookieScope(): CookieOptions {
    return { path: '/', ...(this.config.COOKIE_DOMAIN ? { domain: this.config.COOKIE_DOMAIN } : {}) };
  }

  @Get('me')
  @Auth('developer')
  me(@CurrentPrincipal() principal: DeveloperPrincipal) {
    return this.developers.me(principal.developerId);
  }
}
