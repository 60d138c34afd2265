import { Doc, Errors, type ErrorSpec, NoContentRoute } from '../api-docs/decorators';
import { ActionRoute, CreateRoute } from '../api-docs/routes';
import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { ref } from '../api-docs/response-schema';
import { LoginSecondStepDto } from '../second-factor/dto/mfa.dto';
import { MfaTokenDto } from '../second-factor/dto/passkey.dto';
import { MfaChallengesService } from '../second-factor/mfa-challenges.service';
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
import { RateLimit, RateLimitGuard } from '../common/rate-limit/rate-limit.guard';
import { SessionsService } from '../sessions/sessions.service';
import { SuccessSchema } from '../api-docs/schemas';
import { MfaRequiredSchema, PasskeyRequestOptionsSchema } from '../second-factor/mfa.schemas';

const INVALID_CLIENT: ErrorSpec = [400, 'invalid_client', 'Unknown client_id'];
const RATE_LIMITED: ErrorSpec = [
  429,
  'rate_limited',
  'Too many attempts from this IP or for this account; retry after Retry-After seconds',
];
const EXAMPLE_TOKENS = {
  access_token: 'kR4pZ2xW9mT7vL1cQ8nB5hY3jF6gD0sAe2Uo7Ii',
  refresh_token: 'rt_q8Zt1mXv3Lp7Rk2Wn5Bc9Hd4Fs6Gj0Ya',
  token_type: 'Bearer',
  expires_in: 900,
  session_id: '2d4f6a8c-0e1b-4c3d-9e5f-7a9b1c3d5e7f',
};

@ApiTags('end-user auth')
@Controller('e/v1/auth')
@UseGuards(RateLimitGuard)
export class AuthController {
  constructor(
    private readonly endUsers: EndUsersService,
    private readonly sessions: SessionsService,
    private readonly passwords: PasswordService,
    private readonly challenges: MfaChallengesService,
  ) {}

  @Doc(
    'Register an end user',
    'Creates an end user of an application (client_id) and mails a 6-digit verification code (POST /e/v1/email/verify/). The email must be unused in that application. Rate limited per IP and per account.',
  )
  @CreateRoute(
    'register',
    EndUserResponse,
    'The new end user, its email not yet verified',
    INVALID_CLIENT,
    [409, 'email_taken', 'An account with this email already exists for this application'],
    RATE_LIMITED,
  )
  @Auth('public')
  @RateLimit('register')
  register(@Body() dto: RegisterDto, @ReqMeta() meta: RequestMeta) {
    return this.endUsers.register(dto, meta);
  }

  @Doc(
    'Sign an end user in',
    'Checks email and password for an application and returns an opaque access token (Bearer, `expires_in` seconds) and a refresh token. For an account with a second factor the answer is instead `{mfa_required: true, mfa_token, methods}` and no tokens: finish with POST /e/v1/auth/login/mfa/. Each sign-in is checked for anomalies afterwards (new device, new country, …) and may mail the user. Rate limited.',
  )
  @Errors(
    INVALID_CLIENT,
    [401, 'invalid_credentials', 'Unknown email, wrong password, or inactive account (one answer for all)'],
    RATE_LIMITED,
  )
  @Post('login')
  @Auth('public')
  @HttpCode(200)
  @RateLimit('login')
  @ApiResponse({
    status: 200,
    description: 'Signed in (tokens), or a second step is owed (`mfa_required`)',
    content: {
      'application/json': {
        schema: { oneOf: [{ $ref: '#/components/schemas/TokenResponse' }, ref(MfaRequiredSchema)] },
        examples: {
          tokens: { summary: 'Password-only account', value: EXAMPLE_TOKENS },
          mfa: {
            summary: 'Account with a second factor',
            value: { mfa_required: true, mfa_token: 'mfa_Vb2xQ9kT4mZ7pL1cR8nW5hY3jF6gD0sAe2Uo7IiKx', methods: ['totp', 'recovery_code'] },
          },
        },
      },
    },
  })
  login(@Body() dto: LoginDto, @ReqMeta() meta: RequestMeta) {
    return this.endUsers.login(dto, meta);
  }

  @Doc(
    'Finish a sign-in with the second factor',
    'Trades the `mfa_token` of POST /e/v1/auth/login/ and a current authenticator code (`code`), one recovery code (`recovery_code`) or a passkey assertion (`passkey`, for the options of POST /e/v1/auth/login/mfa/passkey/options/) for the usual token body. The access token carries `amr` (RFC 8176) and `acr`. The token works once and for 5 minutes; five wrong codes void it. Rate limited per IP and per account.',
  )
  @ActionRoute(
    'login/mfa',
    200,
    TokenResponse,
    'Signed in: the tokens',
    [400, 'invalid_passkey_response', 'The passkey field is not WebAuthn authentication JSON'],
    [401, 'invalid_code', 'The code is not correct (or was already used), or the passkey was not accepted'],
    [401, 'mfa_token_invalid', 'The mfa_token is unknown, expired, used, or void after 5 wrong codes: sign in with the password again'],
    RATE_LIMITED,
  )
  @Auth('public')
  @RateLimit('mfa')
  loginSecondStep(@Body() dto: LoginSecondStepDto, @ReqMeta() meta: RequestMeta) {
    return this.endUsers.loginSecondStep(dto, meta);
  }

  @Doc(
    'Passkey options for the second step',
    "WebAuthn request options for finishing a sign-in whose `methods` include `passkey`: the account's passkeys are allowed, the challenge is bound to the account, works once and lives 5 minutes. Hand them to `startAuthentication` of @simplewebauthn/browser and send the result as `passkey` to POST /e/v1/auth/login/mfa/. Rate limited like the second step.",
  )
  @ActionRoute(
    'login/mfa/passkey/options',
    200,
    PasskeyRequestOptionsSchema,
    'The request options',
    [401, 'mfa_token_invalid', 'The mfa_token is unknown, expired, used, or void after 5 wrong codes'],
    [409, 'passkey_not_offered', 'The account has no passkey (the methods do not include passkey)'],
    [429, 'rate_limited', 'Too many attempts from this IP; retry after Retry-After seconds'],
  )
  @Auth('public')
  @RateLimit('mfa')
  passkeyOptions(@Body() dto: MfaTokenDto) {
    return this.challenges.passkeyOptions(dto.mfa_token, 'api');
  }

  @Doc(
    'Refresh the access token',
    'Trades a refresh token for a new pair. Refresh tokens rotate: each works once, and replaying a used one revokes the whole session.',
  )
  @ActionRoute('token/refresh', 200, TokenResponse, 'The new tokens', [
    401,
    'invalid_token',
    'The refresh token is invalid, expired, used or revoked',
  ])
  @Auth('public')
  refresh(@Body() dto: RefreshDto, @ReqMeta() meta: RequestMeta) {
    return this.sessions.refresh(dto.refresh_token, meta);
  }

  @Doc('Sign the end user out', 'Ends the session of the access token: the access and refresh tokens stop working.')
  @NoContentRoute(Post('logout'), 'Signed out')
  @Auth('end-user')
  async logout(@CurrentPrincipal() principal: EndUserPrincipal, @ReqMeta() meta: RequestMeta): Promise<void> {
    await this.sessions.logout(principal, meta);
  }

  @Doc(
    'Ask for a password-reset code',
    'Mails a reset code to the account of this email in the application (client_id) or the workspace directory (workspace_id). Always answers success, whether or not the account exists, and sends at most one mail a minute.',
  )
  @ActionRoute('password/reset', 200, SuccessSchema, 'Accepted (the same answer when no account matches)', INVALID_CLIENT, RATE_LIMITED)
  @Auth('public')
  @RateLimit('reset')
  requestReset(@Body() dto: PasswordResetRequestDto, @ReqMeta() meta: RequestMeta) {
    return this.passwords.requestReset(dto, meta);
  }

  @Doc('Set a new password with a reset code', 'Checks the mailed code and sets the new password; every session of the user is signed out.')
  @ActionRoute(
    'password/reset/confirm',
    200,
    SuccessSchema,
    'Password changed',
    INVALID_CLIENT,
    [400, 'invalid_code', 'The code is not correct, or no code is pending'],
    [400, 'code_expired', 'The code has expired; ask for a new one'],
    [429, 'too_many_attempts', 'Too many wrong codes: ask for a new one'],
    RATE_LIMITED,
  )
  @Auth('public')
  @RateLimit('reset')
  confirmReset(@Body() dto: PasswordResetConfirmDto, @ReqMeta() meta: RequestMeta) {
    return this.passwords.confirmReset(dto, meta);
  }

  @Doc('Change my password', 'Needs the current password; every other session of the user is signed out.')
  @ActionRoute('password', 200, SuccessSchema, 'Password changed', [400, 'invalid_password', 'The current password is not correct'])
  @Auth('end-user')
  change(@CurrentPrincipal() principal: EndUserPrincipal, @Body() dto: PasswordChangeDto, @ReqMeta() meta: RequestMeta) {
    return this.passwords.change(principal, dto, meta);
  }
}
