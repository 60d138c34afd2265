import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal } from '../../common/auth/auth.decorator';
import type { DeveloperPrincipal } from '../../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../../common/request-context';
import { CreateSamlSpDto, SamlSpListQueryDto, UpdateSamlSpDto } from './dto/saml-sp.dto';
import { SamlSpsService } from './saml-sps.service';

@ApiTags('saml')
@Controller('developer/saml/sps')
@Auth('developer')
export class SamlSpsController {
  constructor(private readonly sps: SamlSpsService) {}

  @Post()
  create(@CurrentPrincipal() p: DeveloperPrincipal, @Body() dto: CreateSamlSpDto, @ReqMeta() meta: RequestMeta) {
    return this.sps.create(p, dto, meta);
  }

  @Get()
  async list(@CurrentPrincipal() p: DeveloperPrincipal, @Query() query: SamlSpListQueryDto) {
    return { results: await this.sps.list(p, query.workspace_id) };
  }

  @Get(':id')
  get(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return this.sps.get(p, id);
  }

  @Put(':id')
  update(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @Body() dto: UpdateSamlSpDto, @ReqMeta() meta: RequestMeta) {
    return this.sps.update(p, id, dto, meta);
  }

  @Delete(':id')
  @HttpCode(204)
  remove(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.sps.remove(p, id, meta);
  }
}
