import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal } from '../common/auth/auth.decorator';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { DevelopersService } from './developers.service';
import { CreateDeveloperTokenDto } from './dto/developer-auth.dto';

@ApiTags('developer tokens')
@Controller('developer/tokens')
@Auth('developer')
export class DeveloperTokensController {
  constructor(private readonly developers: DevelopersService) {}

  @Post()
  create(@CurrentPrincipal() principal: DeveloperPrincipal, @Body() dto: CreateDeveloperTokenDto, @ReqMeta() meta: RequestMeta) {
    return this.developers.createToken(principal, dto, meta);
  }

  @Get()
  async list(@CurrentPrincipal() principal: DeveloperPrincipal) {
    return { results: await this.developers.listTokens(principal.developerId) };
  }

  @Delete(':id')
  @HttpCode(204)
  revoke(@CurrentPrincipal() principal: DeveloperPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.developers.revokeToken(principal, id, meta);
  }
}
