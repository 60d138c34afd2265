import { Doc, Errors, NoBody, Returns } from '../api-docs/decorators';
import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal } from '../common/auth/auth.decorator';
import type { EndUserPrincipal } from '../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import {
  EndUserResponse,
  LoginDto,
  PasswordChangeDto,
  PasswordResetConfirmDto,
  PasswordResetRequestDto,
  RefreshDto,
  RegisterDto,
  TokenResponse,
} from './dto/auth.dto';
import { EndUsersService } from './end-users.service';
import { PasswordService } from './password.service';
import { RateLimit, RateLimitGuard } from './rate-limit/rate-limit.guard';
import { SessionsService } from './sessions.service';

@ApiTags('end-user auth')
@Controller('e/v1/auth')
@UseGuards(RateLimitGuard)
export class AuthController {
  constructor(
    private readonly endUsers: EndUsersService,
    private readonly sessions: SessionsService,
    private readonly passwords: PasswordService,
  ) {}

  @Doc(
    'Register an end user',
    'Creates an end user of an application (client_id) and mails a 6-digit verification code (POST /e/v1/email/verify/). The email must be unused in that application. Rate limited per IP and per account.',
  )
  @Errors(
    [400, 'invalid_client', 'Unknown client_id'],
    [409, 'email_taken', 'An account with this email already exists for this application'],
    [429, 'rate_limited', 'Too many attempts from this IP or for this account; retry after Retry-After seconds'],
  )
  @Post('register')
  @Auth('public')
  @RateLimit('register')
  @ApiCreatedResponse({ type: EndUserResponse })
  register(@Body() dto: RegisterDto, @ReqMeta() meta: RequestMeta) {
    return this.endUsers.register(dto, meta);
  }

  @Doc(
    'Sign an end user in',
    'Checks email and password for an application and returns an opaque access token (Bearer, `expires_in` seconds) and a refresh token. Each sign-in is checked for anomalies afterwards (new device, new country, …) and may mail the user. Rate limited.',
  )
  @Errors(
    [400, 'invalid_client', 'Unknown client_id'],
    [401, 'invalid_credentials', 'Unknown email, wrong password, or inactive account (one answer for all)'],
    [429, 'rate_limited', 'Too many attempts from this IP or for this account; retry after Retry-After seconds'],
  )
  @Post('login')
  @Auth('public')
  @HttpCode(200)
  @RateLimit('login')
  @ApiOkResponse({ type: TokenResponse })
  login(@Body() dto: LoginDto, @ReqMeta() meta: RequestMeta) {
    return this.endUsers.login(dto, meta);
  }

  @Doc(
    'Refresh the access token',
    'Trades a refresh token for a new pair. Refresh tokens rotate: each works once, and replaying a used one revokes the whole session.',
  )
  @Errors([401, 'invalid_token', 'The refresh token is invalid, expired, used or revoked'])
  @Post('token/refresh')
  @Auth('public')
  @HttpCode(200)
  @ApiOkResponse({ type: TokenResponse })
  refresh(@Body() dto: RefreshDto, @ReqMeta() meta: RequestMeta) {
    return this.sessions.refresh(dto.refresh_token, meta);
  }

  @Doc('Sign the end user out', 'Ends the session of the access token: the access and refresh tokens stop working.')
  @NoBody(204, 'Signed out')
  @Post('logout')
  @Auth('end-user')
  @HttpCode(204)
  async logout(@CurrentPrincipal() principal: EndUserPrincipal, @ReqMeta() meta: RequestMeta): Promise<void> {
    await this.sessions.logout(principal, meta);
  }

  @Doc(
    'Ask for a password-reset code',
    'Mails a reset code to the account of this email in the application (client_id) or the workspace directory (workspace_id). Always answers success, whether or not the account exists, and sends at most one mail a minute.',
  )
  @Returns(200, 'Success', 'Accepted (the same answer when no account matches)')
  @Errors(
    [400, 'invalid_client', 'Unknown client_id'],
    [429, 'rate_limited', 'Too many attempts from this IP or for this account; retry after Retry-After seconds'],
  )
  @Post('password/reset')
  @Auth('public')
  @HttpCode(200)
  @RateLimit('reset')
  requestReset(@Body() dto: PasswordResetRequestDto, @ReqMeta() meta: RequestMeta) {
    return this.passwords.requestReset(dto, meta);
  }

  @Doc('Set a new password with a reset code', 'Checks the mailed code and sets the new password; every session of the user is signed out.')
  @Returns(200, 'Success', 'Password changed')
  @Errors(
    [400, 'invalid_client', 'Unknown client_id'],
    [400, 'invalid_code', 'The code is not correct, or no code is pending'],
    [400, 'code_expired', 'The code has expired; ask for a new one'],
    [429, 'too_many_attempts', 'Too many wrong codes: ask for a new one'],
    [429, 'rate_limited', 'Too many attempts from this IP or for this account; retry after Retry-After seconds'],
  )
  @Post('password/reset/confirm')
  @Auth('public')
  @HttpCode(200)
  @RateLimit('reset')
  confirmReset(@Body() dto: PasswordResetConfirmDto, @ReqMeta() meta: RequestMeta) {
    return this.passwords.confirmReset(dto, meta);
  }

  @Doc('Change my password', 'Needs the current password; every other session of the user is signed out.')
  @Returns(200, 'Success', 'Password changed')
  @Errors([400, 'invalid_password', 'The current password is not correct'])
  @Post('password')
  @Auth('end-user')
  @HttpCode(200)
  change(@CurrentPrincipal() principal: EndUserPrincipal, @Body() dto: PasswordChangeDto, @ReqMeta() meta: RequestMeta) {
    return this.passwords.change(principal, dto, meta);
  }
}
