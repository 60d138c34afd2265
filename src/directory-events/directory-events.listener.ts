import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { DirectoryEventSealer } from './directory-event-sealer';

/**
 * After a SCIM change committed, its directory events want a feed position at once (readable
 * within a second of commit, no fixed hold-back): wakes this instance's sealer.
 */
@Injectable()
export class DirectoryEventsListener {
  constructor(private readonly sealer: DirectoryEventSealer) {}

  @OnEvent('scim_user_create')
  @OnEvent('scim_user_update')
  @OnEvent('scim_user_delete')
  @OnEvent('scim_group_create')
  @OnEvent('scim_group_update')
  @OnEvent('scim_group_delete')
  onDirectoryChange(): void {
    this.sealer.wake();
  }
}
