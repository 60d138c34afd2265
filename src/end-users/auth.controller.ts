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

  @Post('register')
  @Auth('public')
  @RateLimit('register')
  @ApiCreatedResponse({ type: EndUserResponse })
  register(@Body() dto: RegisterDto, @ReqMeta() meta: RequestMeta) {
    return this.endUsers.register(dto, meta);
  }

  @Post('login')
  @Auth('public')
  @HttpCode(200)
  @RateLimit('login')
  @ApiOkResponse({ type: TokenResponse })
  login(@Body() dto: LoginDto, @ReqMeta() meta: RequestMeta) {
    return this.endUsers.login(dto, meta);
  }

  @Post('token/refresh')
  @Auth('public')
  @HttpCode(200)
  @ApiOkResponse({ type: TokenResponse })
  refresh(@Body() dto: RefreshDto, @ReqMeta() meta: RequestMeta) {
    return this.sessions.refresh(dto.refresh_token, meta);
  }

  @Post('logout')
  @Auth('end-user')
  @HttpCode(204)
  async logout(@CurrentPrincipal() principal: EndUserPrincipal, @ReqMeta() meta: RequestMeta): Promise<void> {
    await this.sessions.logout(principal, meta);
  }

  @Post('password/reset')
  @Auth('public')
  @HttpCode(200)
  @RateLimit('reset')
  requestReset(@Body() dto: PasswordResetRequestDto, @ReqMeta() meta: RequestMeta) {
    return this.passwords.requestReset(dto, meta);
  }

  @Post('password/reset/confirm')
  @Auth('public')
  @HttpCode(200)
  @RateLimit('reset')
  confirmReset(@Body() dto: PasswordResetConfirmDto, @ReqMeta() meta: RequestMeta) {
    return this.passwords.confirmReset(dto, meta);
  }

  @Post('password')
  @Auth('end-user')
  @HttpCode(200)
  change(@CurrentPrincipal() principal: EndUserPrincipal, @Body() dto: PasswordChangeDto, @ReqMeta() meta: RequestMeta) {
    return this.passwords.change(principal, dto, meta);
  }
}
