import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal } from '../common/auth/auth.decorator';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { BackupsService } from './backups.service';
import { CreateBackupDto } from './dto/database.dto';
import { BackupListResponse, BackupResponse, RestoreResponse } from './dto/responses.dto';

@ApiTags('managed databases')
@Controller('e/v1/developer')
@Auth('developer')
export class BackupsController {
  constructor(private readonly backups: BackupsService) {}

  @ApiAcceptedResponse({ type: BackupResponse })
  @Post('databases/:id/backups')
  @HttpCode(202)
  create(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @Body() dto: CreateBackupDto, @ReqMeta() meta: RequestMeta) {
    return this.backups.create(p, id, dto, meta);
  }

  @ApiOkResponse({ type: BackupListResponse })
  @Get('databases/:id/backups')
  list(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return this.backups.list(p.developerId, id);
  }

  @ApiOkResponse({ type: BackupResponse })
  @Get('backups/:id')
  get(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return this.backups.get(p.developerId, id);
  }

  @ApiAcceptedResponse({ type: RestoreResponse })
  @Post('backups/:id/restore')
  @HttpCode(202)
  restore(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string, @ReqMeta() meta: RequestMeta) {
    return this.backups.restore(p, id, meta);
  }

  @ApiOkResponse({ type: RestoreResponse })
  @Get('restores/:id')
  getRestore(@CurrentPrincipal() p: DeveloperPrincipal, @Param('id') id: string) {
    return this.backups.getRestore(p.developerId, id);
  }
}
