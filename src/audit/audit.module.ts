import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditChainRepository } from './audit-chain.repository';
import { AuditQueryService } from './audit-query.service';
import { AuditSealer } from './audit-sealer';
import { AuditVerifyService } from './audit-verify.service';
import { AuditSigningKeys } from './chain/signing-keys';
import { AuditController } from './audit.controller';
import { AuditWriterModule } from './audit-writer.module';
import { AuditChainEntry } from './entities/audit-chain-entry.entity';
import { AuditCheckpoint } from './entities/audit-checkpoint.entity';
import { AuditEvent } from './entities/audit-event.entity';

/**
 * The audit log: its query API, the hash chain's sealer and verification. Rows are written only by
 * the AuditWriter (AuditWriterModule), the unit of work's transaction-phase writer.
 */
@Module({
  imports: [TypeOrmModule.forFeature([AuditEvent, AuditChainEntry, AuditCheckpoint]), AuditWriterModule],
  controllers: [AuditController],
  providers: [AuditQueryService, AuditChainRepository, AuditSigningKeys, AuditSealer, AuditVerifyService],
  exports: [AuditChainRepository, AuditSealer],
})
export class AuditModule {}
