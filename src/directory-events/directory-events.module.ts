import { Module } from '@nestjs/common';
import { DirectoryEventSealer } from './directory-event-sealer';
import { DirectoryEventsController } from './directory-events.controller';
import { DirectoryEventsListener } from './directory-events.listener';
import { DirectoryEventsRepository } from './directory-events.repository';
import { DirectoryEventsService } from './directory-events.service';

/** The directory event feed: its sealer, the feed and snapshot API (docs/events.md). */
@Module({
  controllers: [DirectoryEventsController],
  providers: [DirectoryEventsRepository, DirectoryEventsService, DirectoryEventSealer, DirectoryEventsListener],
  exports: [DirectoryEventsRepository, DirectoryEventsService],
})
export class DirectoryEventsModule {}
