import { Module } from '@nestjs/common';
import { DirectoryEventWriter } from './directory-event-writer';
import { DirectoryEventsRepository } from './directory-events.repository';

/**
 * The directory-event writer and its repository on their own, for the app layer to hand the unit
 * of work as a transaction-phase writer (as AuditWriterModule does for the audit writer).
 */
@Module({ providers: [DirectoryEventsRepository, DirectoryEventWriter], exports: [DirectoryEventsRepository, DirectoryEventWriter] })
export class DirectoryEventsWriterModule {}
