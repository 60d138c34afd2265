import { Controller, Delete, Get, HttpCode, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal } from '../common/auth/auth.decorator';
import type { EndUserPrincipal } from '../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { SessionsService } from './sessions.service';

@ApiTags('end-user sessions')
@Controller('user/security/sessions')
@Auth('end-user')
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Get()
  async list(@CurrentPrincipal() principal: EndUserPrincipal) {
    return { results: await this.sessions.list(principal) };
  }

  @Delete(':id')
  @HttpCode(204)
  async revoke(@CurrentPrincipal() principal: EndUserPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta): Promise<void> {
    await this.sessions.revokeSession(principal, id, meta);
  }
}
