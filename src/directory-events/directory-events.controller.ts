import { Query } from '@nestjs/common';
import { Doc, type ErrorSpec } from '../api-docs/decorators';
import { NOT_A_MEMBER, ReadRoute } from '../api-docs/routes';
import { DeveloperApi } from '../common/auth/developer-api.decorator';
import { type WorkspaceScope, WorkspaceInQuery } from '../workspaces/workspace-scoped';
import { DirectoryEventPageSchema, DirectorySnapshotSchema } from './directory-events.schemas';
import { DirectoryEventsService } from './directory-events.service';
import { DirectoryQueryDto, EventsQueryDto } from './dto/events-query.dto';

const NO_WORKSPACE_ID: ErrorSpec = [400, 'validation_failed', 'workspace_id is missing or not a UUID'];

@DeveloperApi('developer', 'directory events')
export class DirectoryEventsController {
  constructor(private readonly events: DirectoryEventsService) {}

  @Doc(
    'Read the directory event feed',
    "The workspace's directory events after `after`, oldest first, by seq: a per-workspace sequence given in commit order, so a consumer that has read up to N never later finds an event numbered N or below. Events are readable within a second of the change's commit. Keep next_after and pass it as `after`. Events are kept DIRECTORY_EVENTS_RETENTION_DAYS (30 days); a position older than that is a 410 (start again from GET /developer/directory/). Members of the workspace only.",
  )
  @ReadRoute(
    'events',
    DirectoryEventPageSchema,
    'One page of events',
    [400, 'validation_failed', 'A query parameter breaks its rule, or a type is not a directory event type (details names it)'],
    NOT_A_MEMBER,
    [410, 'events_expired', 'Events after `after` are past the retention'],
  )
  feed(@WorkspaceInQuery() scope: WorkspaceScope, @Query() query: EventsQueryDto) {
    return this.events.feed(scope, query);
  }

  @Doc(
    'Read the whole directory',
    'Every SCIM user, group and membership of the workspace, read in one snapshot, with the feed position (seq) it reflects: every event up to seq is in it. Start a consumer here, then read GET /developer/events/?after=seq. Members of the workspace only.',
  )
  @ReadRoute('directory', DirectorySnapshotSchema, 'The directory and its feed position', NO_WORKSPACE_ID, NOT_A_MEMBER)
  directory(@WorkspaceInQuery() scope: WorkspaceScope, @Query() _query: DirectoryQueryDto) {
    return this.events.snapshot(scope);
  }
}
