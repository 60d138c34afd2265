import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal } from '../../common/auth/auth.decorator';
import type { DeveloperPrincipal } from '../../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../../common/request-context';
import { CreateScimTokenDto, ScimTokenQueryDto } from './scim-token.dto';
import { ScimTokensService } from './scim-tokens.service';

@ApiTags('scim tokens')
@Controller('developer/scim/tokens')
@Auth('developer')
export class ScimTokensController {
  constructor(private readonly tokens: ScimTokensService) {}

  @Post()
  mint(@CurrentPrincipal() p: DeveloperPrincipal, @Body() dto: CreateScimTokenDto, @ReqMeta() meta: RequestMeta) {
    return this.tokens.mint(p, dto, meta);
  }

  @Get()
  async list(@CurrentPrincipal() p: DeveloperPrincipal, @Query() query: ScimTokenQueryDto) {
    return { results: await this.tokens.list(p, query.workspace_id) };
  }

  @Delete(':id')
  @HttpCode(200)
  revoke(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.tokens.revoke(p, id, meta);
  }
}
