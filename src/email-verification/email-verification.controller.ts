import { Doc, type ErrorSpec } from '../api-docs/decorators';
import { ActionRoute } from '../api-docs/routes';
import { Body, UseGuards } from '@nestjs/common';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { RateLimit, RateLimitGuard } from '../common/rate-limit/rate-limit.guard';
import { ResendVerificationDto, VerificationResponse, VerifyEmailDto } from './email-verification.dto';
import { EmailVerificationService } from './email-verification.service';
import { PublicApi } from '../common/controller-kinds';

const NO_ACCOUNT: ErrorSpec = [404, 'user_not_found', 'No account is registered with this email'];
const ALREADY_VERIFIED: ErrorSpec = [409, 'already_verified', 'This email address is already verified'];

@PublicApi('e/v1/email/verify', 'email verification')
@UseGuards(RateLimitGuard)
export class EmailVerificationController {
  constructor(private readonly verification: EmailVerificationService) {}

  @Doc('Verify an email address', 'Checks the 6-digit code mailed at registration. Five wrong codes void it. Rate limited.')
  @ActionRoute(
    '',
    200,
    VerificationResponse,
    'Verified',
    [400, 'invalid_code', 'The code is not correct, not 6 digits, or none is pending'],
    [400, 'code_expired', 'The code has expired; ask for a new one'],
    NO_ACCOUNT,
    ALREADY_VERIFIED,
    [429, 'too_many_attempts', 'Too many wrong codes: this code no longer works'],
    [429, 'rate_limited', 'Too many attempts from this IP or for this account'],
  )
  @RateLimit('verify')
  verify(@Body() dto: VerifyEmailDto, @ReqMeta() meta: RequestMeta) {
    return this.verification.verify(dto.email, dto.code, meta);
  }

  @Doc('Send a new verification code', 'Mails a fresh code (the previous one stops working); at most one a minute.')
  @ActionRoute('resend', 200, VerificationResponse, 'A new code is on its way', NO_ACCOUNT, ALREADY_VERIFIED, [
    429,
    'rate_limited',
    'A code was sent less than a minute ago, or too many attempts',
  ])
  @RateLimit('resend')
  resend(@Body() dto: ResendVerificationDto, @ReqMeta() meta: RequestMeta) {
    return this.verification.resend(dto.email, meta);
  }
}
