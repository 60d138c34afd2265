import { Module } from '@nestjs/common';
import { AuditWriter } from './audit-writer';
import { AuditRepository } from './audit.repository';

/**
 * The audit writer and the repository it appends through, on their own: the app layer hands
 * AuditWriter to the unit of work as its first transaction-phase writer
 * (DatabaseModule.forRoot in src/app.module.ts), and that needs nothing from the rest of the
 * audit module (the query API, the sealer), which itself runs units of work.
 */
@Module({ providers: [AuditRepository, AuditWriter], exports: [AuditRepository, AuditWriter] })
export class AuditWriterModule {}
