import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '../common/errors';
import { APP_CONFIG, AppConfig } from '../config/config';
import { toScimGroup } from '../scim/groups/group.mapper';
import { toScimUser } from '../scim/users/user.mapper';
import type { WorkspaceScope } from '../workspaces/workspace-scoped';
import { DirectoryEventRow, DirectoryEventsRepository } from './directory-events.repository';
import { DIRECTORY_EVENT_ERRORS } from './directory-events.errors';
import type { EventsQueryDto } from './dto/events-query.dto';

/** One event as the feed, webhooks and docs show it. */
export interface DirectoryEventView {
  id: string;
  seq: number;
  type: string;
  workspace_id: string;
  occurred_at: string;
  data: Record<string, unknown>;
  changed?: string[];
}

const DEFAULT_LIMIT = 100;

/** The directory event feed and the snapshot to start it from (docs/events.md). */
@Injectable()
export class DirectoryEventsService {
  private readonly baseUrl: string;

  constructor(
    private readonly events: DirectoryEventsRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.baseUrl = config.PUBLIC_BASE_URL;
  }

  /**
   * Events after `after`, oldest first. A position older than what retention kept is a 410, never
   * a silent jump over the events that are gone.
   */
  async feed(scope: WorkspaceScope, query: EventsQueryDto): Promise<{ results: DirectoryEventView[]; next_after: number }> {
    const after = Number(query.after ?? '0');
    const types = query.types?.length ? [...new Set(query.types)] : null;
    const rows = await this.events.page(scope.workspaceId, after, query.limit ?? DEFAULT_LIMIT, types);
    if (after > 0 && (rows.length === 0 || rows[0].seq > after + 1)) await this.assertKept(scope.workspaceId, after);
    return { results: rows.map(toEventView), next_after: rows.at(-1)?.seq ?? after };
  }

  async snapshot(scope: WorkspaceScope) {
    const directory = await this.events.snapshot(scope.workspaceId);
    return {
      seq: directory.seq,
      users: directory.users.map((u) =>
        toScimUser(
          {
            id: u.id,
            email: u.email,
            firstName: u.first_name,
            lastName: u.last_name,
            isActive: u.is_active,
            createdAt: new Date(u.created_at),
            updatedAt: new Date(u.updated_at),
          },
          this.baseUrl,
        ),
      ),
      groups: directory.groups.map((g) =>
        toScimGroup(
          {
            id: g.id,
            displayName: g.display_name,
            externalId: g.external_id,
            createdAt: new Date(g.created_at),
            updatedAt: new Date(g.updated_at),
          },
          undefined,
          this.baseUrl,
        ),
      ),
      memberships: directory.memberships,
    };
  }

  private async assertKept(workspaceId: string, after: number): Promise<void> {
    const oldest = await this.events.oldestSeq(workspaceId);
    if (oldest !== null && oldest > after + 1) {
      throw new DomainError(
        DIRECTORY_EVENT_ERRORS.events_expired,
        `events after ${after} are past the retention; start again from GET /developer/directory/ (its seq is ${oldest - 1} or later)`,
      );
    }
  }
}

export function toEventView(row: DirectoryEventRow): DirectoryEventView {
  return {
    id: row.id,
    seq: row.seq,
    type: row.type,
    workspace_id: row.workspaceId,
    occurred_at: row.occurredAt,
    data: row.data,
    ...(row.changed ? { changed: row.changed } : {}),
  };
}
