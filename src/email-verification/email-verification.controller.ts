import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Auth } from '../common/auth/auth.decorator';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { RateLimit, RateLimitGuard } from '../end-users/rate-limit/rate-limit.guard';
import { ResendVerificationDto, VerificationResponse, VerifyEmailDto } from './email-verification.dto';
import { EmailVerificationService } from './email-verification.service';

@ApiTags('email verification')
@Controller('e/v1/email/verify')
@Auth('public')
@UseGuards(RateLimitGuard)
export class EmailVerificationController {
  constructor(private readonly verification: EmailVerificationService) {}

  @Post()
  @HttpCode(200)
  @RateLimit('verify')
  @ApiOkResponse({ type: VerificationResponse })
  verify(@Body() dto: VerifyEmailDto, @ReqMeta() meta: RequestMeta) {
    return this.verification.verify(dto.email, dto.code, meta);
  }

  @Post('resend')
  @HttpCode(200)
  @RateLimit('resend')
  @ApiOkResponse({ type: VerificationResponse })
  resend(@Body() dto: ResendVerificationDto, @ReqMeta() meta: RequestMeta) {
    return this.verification.resend(dto.email, meta);
  }
}
