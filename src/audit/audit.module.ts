import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditQueryService } from './audit-query.service';
import { AuditController } from './audit.controller';
import { AuditListener } from './audit.listener';
import { AuditRepository } from './audit.repository';
import { AuditEvent } from './entities/audit-event.entity';

/** The audit log: its writer listens to domain events; nothing else writes audit rows. */
@Module({
  imports: [TypeOrmModule.forFeature([AuditEvent])],
  controllers: [AuditController],
  providers: [AuditRepository, AuditListener, AuditQueryService],
})
export class AuditModule {}
