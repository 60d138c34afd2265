import { Body, Controller, Get, Param, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal } from '../common/auth/auth.decorator';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { ListEmailTemplatesQuery, SaveEmailTemplateDto } from './dto/email-template.dto';
import { EmailTemplatesService } from './email-templates.service';

@ApiTags('email templates')
@Controller('developer/email-templates')
@Auth('developer')
export class EmailTemplatesController {
  constructor(private readonly templates: EmailTemplatesService) {}

  @Get()
  async list(@CurrentPrincipal() developer: DeveloperPrincipal, @Query() query: ListEmailTemplatesQuery) {
    return { results: await this.templates.list(developer, query.workspace_id) };
  }

  @Put(':name')
  save(@CurrentPrincipal() developer: DeveloperPrincipal, @Param('name') name: string, @Body() dto: SaveEmailTemplateDto) {
    return this.templates.save(developer, name, dto);
  }
}
