import { Global, Module } from '@nestjs/common';
import { AuditQueryService } from './audit-query.service';
import { AuditController } from './audit.controller';
import { AuditService } from './audit.service';

/** Global: every module writes its audit rows through AuditService. */
@Global()
@Module({ controllers: [AuditController], providers: [AuditService, AuditQueryService], exports: [AuditService] })
export class AuditModule {}
