import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditChainRepository } from './audit-chain.repository';
import { AuditQueryService } from './audit-query.service';
import { AuditSealer } from './audit-sealer';
import { AuditVerifyService } from './audit-verify.service';
import { AuditSigningKeys } from './chain/signing-keys';
import { AuditController } from './audit.controller';
import { AuditListener } from './audit.listener';
import { AuditRepository } from './audit.repository';
import { AuditChainEntry } from './entities/audit-chain-entry.entity';
import { AuditCheckpoint } from './entities/audit-checkpoint.entity';
import { AuditEvent } from './entities/audit-event.entity';

/** The audit log: its writer listens to domain events; nothing else writes audit rows. */
@Module({
  imports: [TypeOrmModule.forFeature([AuditEvent, AuditChainEntry, AuditCheckpoint])],
  controllers: [AuditController],
  providers: [AuditRepository, AuditListener, AuditQueryService, AuditChainRepository, AuditSigningKeys, AuditSealer, AuditVerifyService],
  exports: [AuditChainRepository, AuditSealer],
})
export class AuditModule {}
