import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { once } from 'node:events';
import { Auth, CurrentPrincipal } from '../common/auth/auth.decorator';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { AuditQueryService } from './audit-query.service';
import { AuditVerifyService } from './audit-verify.service';
import { AuditCheckpointsQueryDto, AuditExportQueryDto, AuditQueryDto, AuditVerifyQueryDto } from './dto/audit-query.dto';

@ApiTags('audit')
@Controller('developer/audit')
@Auth('developer')
export class AuditController {
  constructor(
    private readonly audit: AuditQueryService,
    private readonly verification: AuditVerifyService,
  ) {}

  /** Recomputes the workspace's hash chain and checks its signed checkpoints (docs/audit.md). */
  @Get('verify')
  verify(@CurrentPrincipal() p: DeveloperPrincipal, @Query() query: AuditVerifyQueryDto) {
    return this.verification.verify(p.developerId, query);
  }

  @Get('checkpoints')
  checkpoints(@CurrentPrincipal() p: DeveloperPrincipal, @Query() query: AuditCheckpointsQueryDto) {
    return this.verification.checkpoints(p.developerId, query);
  }

  /** The Ed25519 public keys that sign checkpoints: the active one and those retired by rotation. */
  @Get('keys')
  keys() {
    return this.verification.publicKeys();
  }

  @Get()
  list(@CurrentPrincipal() p: DeveloperPrincipal, @Query() query: AuditQueryDto) {
    return this.audit.list(p.developerId, query);
  }

  @Get('export')
  @ApiProduces('application/x-ndjson')
  async export(@CurrentPrincipal() p: DeveloperPrincipal, @Query() query: AuditExportQueryDto, @Res() res: Response): Promise<void> {
    const events = this.audit.export(p.developerId, query);
    // Pull the first row before committing to a 200, so a membership error still gets its JSON status.
    let next = await events.next();
    res.status(200).type('application/x-ndjson');
    while (!next.done) {
      if (!res.write(`${JSON.stringify(next.value)}\n`)) await once(res, 'drain');
      next = await events.next();
    }
    res.end();
  }
}
