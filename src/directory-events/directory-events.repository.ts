import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { computed, entityColumns, NO_ROW } from '../database/row-shape';
import { first, one, run, statement } from '../database/statement';
import type { Tx } from '../database/unit-of-work';
import type { DirectoryEventType } from '../events/domain-events';
import { DirectoryEvent } from './entities/directory-event.entity';

/** A timestamp as JavaScript's toISOString writes it (milliseconds, truncated as node-postgres reads them). */
const ISO_MS = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const APPEND = statement(
  'directory-events.append',
  `INSERT INTO directory_events (workspace_id, type, resource_id, data, changed) VALUES ($1, $2, $3, $4::jsonb, $5::text[])`,
  NO_ROW,
);

/**
 * The riding form of APPEND, for the SCIM create's single statement (decision 0016): the user's
 * meta times are the transaction's now(), which is what the insert's defaults stored.
 */
const APPEND_STAMPED_EXPRESSION = `directory_event_append($1::uuid, $2::text, $3::uuid,
  jsonb_set(jsonb_set($4::jsonb, '{meta,created}', to_jsonb(${ISO_MS('now()')})), '{meta,lastModified}', to_jsonb(${ISO_MS('now()')})),
  $5::text[])`;

const APPEND_STAMPED = statement('directory-events.append-stamped', `SELECT ${APPEND_STAMPED_EXPRESSION} AS id`, NO_ROW);

/** A group as SCIM GET shows it without its members (decision 0512), read in the change's transaction. */
const APPEND_GROUP = statement(
  'directory-events.append-group',
  `INSERT INTO directory_events (workspace_id, type, resource_id, data, changed)
       SELECT g.workspace_id, $3, g.id,
              jsonb_build_object('schemas', jsonb_build_array($5::text), 'id', g.id, 'displayName', g.display_name,
                'meta', jsonb_build_object('resourceType', 'Group', 'created', ${ISO_MS('g.created_at')},
                  'lastModified', ${ISO_MS('GREATEST(g.updated_at, (SELECT max(c.changed_at) FROM scim_group_changes c WHERE c.group_id = g.id))')},
                  'location', $6::text || g.id::text))
              || CASE WHEN g.external_id IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('externalId', g.external_id) END,
              $4::text[]
         FROM scim_groups g WHERE g.workspace_id = $1 AND g.id = $2`,
  NO_ROW,
);

/** Every (group, user) pair of a membership change in one set-based insert, groups then users in the order given. */
const APPEND_MEMBERSHIPS = statement(
  'directory-events.append-memberships',
  `INSERT INTO directory_events (workspace_id, type, resource_id, data)
       SELECT $1, $2, g.id, jsonb_build_object('group', jsonb_build_object('id', g.id, 'displayName', g.display_name),
                                                'user', jsonb_build_object('id', m.id, 'userName', m.user_name))
         FROM unnest($3::uuid[]) WITH ORDINALITY AS gi(id, n)
         JOIN scim_groups g ON g.id = gi.id AND g.workspace_id = $1
        CROSS JOIN unnest($4::uuid[], $5::text[]) WITH ORDINALITY AS m(id, user_name, n)
        ORDER BY gi.n, m.n`,
  NO_ROW,
);

/**
 * One (group, user) event of a membership change as an expression, for a one-statement unit of work (decision
 * 0991): the group's name and the user's userName are read in the statement, as APPEND_MEMBERSHIPS writes them
 * (the userName given when the change knows it, else the user's row).
 */
const APPEND_MEMBERSHIP_EXPRESSION = `directory_event_append($1::uuid, $2::text, $3::uuid,
  jsonb_build_object(
    'group', (SELECT jsonb_build_object('id', g.id, 'displayName', g.display_name) FROM scim_groups g WHERE g.workspace_id = $1::uuid AND g.id = $3::uuid),
    'user', jsonb_build_object('id', $4::uuid, 'userName', COALESCE($5::text, (SELECT u.email FROM end_users u WHERE u.workspace_id = $1::uuid AND u.id = $4::uuid)))),
  NULL::text[])`;

const APPEND_MEMBERSHIP = statement('directory-events.append-membership', `SELECT ${APPEND_MEMBERSHIP_EXPRESSION} AS id`, NO_ROW);

// Key of the transaction-scoped advisory lock that makes one sealer at a time (across instances).
const SEALER_LOCK = 7100500;
const LOCK_SEALER = statement('directory-events.lock-sealer', `SELECT pg_advisory_xact_lock($1)`, NO_ROW);

/**
 * Numbers the committed, unnumbered events (decision 0511): each workspace continues after its
 * highest seq, in insertion order. Run under the sealer lock, so no two passes number at once and
 * a row that commits later can only get a higher seq than any already given.
 */
const SEAL = statement(
  'directory-events.seal',
  `WITH pending AS (
         SELECT id, workspace_id, written FROM directory_events WHERE seq IS NULL ORDER BY written LIMIT $1
       ), heads AS (
         SELECT w.workspace_id, COALESCE((SELECT max(d.seq) FROM directory_events d WHERE d.workspace_id = w.workspace_id), 0) AS head
           FROM (SELECT DISTINCT workspace_id FROM pending) w
       ), numbered AS (
         SELECT p.id, h.head + row_number() OVER (PARTITION BY p.workspace_id ORDER BY p.written) AS seq
           FROM pending p JOIN heads h USING (workspace_id)
       )
       UPDATE directory_events d SET seq = n.seq FROM numbered n WHERE d.id = n.id RETURNING d.workspace_id`,
  entityColumns(DirectoryEvent, ['workspaceId']),
);

const EVENT = entityColumns(DirectoryEvent, ['id', 'workspaceId', 'type', 'resourceId', 'data', 'changed']).and(
  computed({ seq: 'number', occurredAt: ['occurred_at', 'text'] }),
);
const EVENT_COLUMNS = `e.id, e.workspace_id, e.type, e.resource_id, e.data, e.changed, e.seq,
  to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS occurred_at`;

/** One page of the feed: sealed events after a seq, oldest first, of the given types (null: all). */
const PAGE = statement(
  'directory-events.page',
  `SELECT ${EVENT_COLUMNS} FROM directory_events e
        WHERE e.workspace_id = $1 AND e.seq > $2 AND ($4::text[] IS NULL OR e.type = ANY($4::text[]))
        ORDER BY e.seq LIMIT $3`,
  EVENT,
);

/** The workspace's feed head: the highest seq given (0 before its first event). */
const HEAD_SEQ = statement(
  'directory-events.head-seq',
  `SELECT COALESCE(max(seq), 0) AS seq FROM directory_events WHERE workspace_id = $1`,
  computed({ seq: 'number' }),
);

const OLDEST_SEQ = statement(
  'directory-events.oldest-seq',
  `SELECT min(seq) AS seq FROM directory_events WHERE workspace_id = $1`,
  computed({ seq: 'number?' }),
);

/** Drops events older than the retention, keeping each workspace's newest (its seq continues from it). */
const PRUNE = statement(
  'directory-events.prune',
  `DELETE FROM directory_events e
        WHERE e.occurred_at < now() - make_interval(days => $1) AND e.seq IS NOT NULL
          AND e.seq < (SELECT max(d.seq) FROM directory_events d WHERE d.workspace_id = e.workspace_id)`,
  NO_ROW,
);

/**
 * The whole directory and the feed position it is consistent with, in one statement (one
 * snapshot): every event up to `seq` is reflected; a change whose event is not numbered yet may
 * show too, and comes again after `seq` (decision 0511).
 */
const SNAPSHOT = statement(
  'directory-events.snapshot',
  `SELECT (SELECT COALESCE(max(d.seq), 0) FROM directory_events d WHERE d.workspace_id = $1) AS seq,
          json_build_object(
            'users', (SELECT COALESCE(json_agg(json_build_object('id', u.id, 'email', u.email, 'first_name', u.first_name,
                        'last_name', u.last_name, 'is_active', u.is_active, 'created_at', ${ISO_MS('u.created_at')},
                        'updated_at', ${ISO_MS('u.updated_at')}) ORDER BY u.created_at, u.id), '[]'::json)
                        FROM end_users u WHERE u.workspace_id = $1 AND u.oauth_client_id IS NULL),
            'groups', (SELECT COALESCE(json_agg(json_build_object('id', g.id, 'display_name', g.display_name, 'external_id', g.external_id,
                        'created_at', ${ISO_MS('g.created_at')},
                        'updated_at', ${ISO_MS('GREATEST(g.updated_at, (SELECT max(c.changed_at) FROM scim_group_changes c WHERE c.group_id = g.id))')})
                        ORDER BY g.created_at, g.id), '[]'::json)
                        FROM scim_groups g WHERE g.workspace_id = $1),
            'memberships', (SELECT COALESCE(json_agg(json_build_object('group_id', gm.group_id, 'user_id', gm.user_id) ORDER BY gm.seq), '[]'::json)
                        FROM scim_group_members gm WHERE gm.workspace_id = $1)
          ) AS directory`,
  computed({ seq: 'number', directory: 'json' }),
);

export type MembershipEventType = 'directory.group.user_added' | 'directory.group.user_removed';

/** A user of a membership event: its userName when the change read it, else read from the user's row. */
export interface MembershipUser {
  id: string;
  userName?: string;
}

/** One event as the repository reads it. */
export interface DirectoryEventRow {
  id: string;
  workspaceId: string;
  seq: number;
  type: string;
  resourceId: string;
  data: Record<string, unknown>;
  changed: string[] | null;
  /** RFC 3339 UTC with microseconds. */
  occurredAt: string;
}

/** The raw directory of a snapshot (timestamps as ISO text). */
export interface DirectorySnapshotRows {
  seq: number;
  users: { id: string; email: string; first_name: string; last_name: string; is_active: boolean; created_at: string; updated_at: string }[];
  groups: { id: string; display_name: string; external_id: string | null; created_at: string; updated_at: string }[];
  memberships: { group_id: string; user_id: string }[];
}

export interface NewDirectoryEvent {
  workspaceId: string;
  type: DirectoryEventType;
  resourceId: string;
  data: Record<string, unknown>;
  changed: string[] | null;
}

/** directory_events: the outbox of directory changes and the feed over it. Tenant methods take the workspace first. */
@Injectable()
export class DirectoryEventsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async append(tx: Tx, event: NewDirectoryEvent): Promise<void> {
    await run(tx, APPEND, [event.workspaceId, event.type, event.resourceId, JSON.stringify(event.data), event.changed]);
  }

  /** As appendStampedExpression, on a transaction (the create ran as an ordinary unit of work). */
  async appendStamped(tx: Tx, event: NewDirectoryEvent): Promise<void> {
    const { params } = this.appendStampedExpression(event);
    await run(tx, APPEND_STAMPED, params);
  }

  /** APPEND as an expression riding in another statement, the user's meta times stamped with now(). */
  appendStampedExpression(event: NewDirectoryEvent): { expression: string; params: unknown[] } {
    return {
      expression: APPEND_STAMPED_EXPRESSION,
      params: [event.workspaceId, event.type, event.resourceId, JSON.stringify(event.data), event.changed],
    };
  }

  async appendGroup(
    tx: Tx,
    workspaceId: string,
    groupId: string,
    type: 'directory.group.created' | 'directory.group.updated',
    changed: string[] | null,
    schema: string,
    locationPrefix: string,
  ): Promise<void> {
    await run(tx, APPEND_GROUP, [workspaceId, groupId, type, changed, schema, locationPrefix]);
  }

  async appendMemberships(
    tx: Tx,
    workspaceId: string,
    type: MembershipEventType,
    groupIds: string[],
    users: MembershipUser[],
  ): Promise<void> {
    if (groupIds.length === 0 || users.length === 0) return;
    if (users.some((u) => u.userName === undefined)) {
      for (const groupId of groupIds) for (const user of users) await this.appendMembership(tx, workspaceId, type, groupId, user);
      return;
    }
    await run(tx, APPEND_MEMBERSHIPS, [workspaceId, type, groupIds, users.map((u) => u.id), users.map((u) => u.userName)]);
  }

  /** APPEND_MEMBERSHIP_EXPRESSION on a transaction (a one-member change that ran as an ordinary unit of work). */
  async appendMembership(tx: Tx, workspaceId: string, type: MembershipEventType, groupId: string, user: MembershipUser): Promise<void> {
    await run(tx, APPEND_MEMBERSHIP, this.appendMembershipExpression(workspaceId, type, groupId, user).params);
  }

  /** One (group, user) membership event as an expression riding in another statement. */
  appendMembershipExpression(
    workspaceId: string,
    type: MembershipEventType,
    groupId: string,
    user: MembershipUser,
  ): { expression: string; params: unknown[] } {
    return { expression: APPEND_MEMBERSHIP_EXPRESSION, params: [workspaceId, type, groupId, user.id, user.userName ?? null] };
  }

  /** Takes the sealer's lock (waits for another instance's pass) until the transaction ends. */
  async lockSealer(tx: Tx): Promise<void> {
    await run(tx, LOCK_SEALER, [SEALER_LOCK]);
  }

  /** Numbers up to `limit` committed events; answers the workspace of each. */
  async seal(tx: Tx, limit: number): Promise<string[]> {
    return (await run(tx, SEAL, [limit])).map((r) => r.workspaceId);
  }

  async page(workspaceId: string, after: number, limit: number, types: string[] | null): Promise<DirectoryEventRow[]> {
    return run(this.dataSource, PAGE, [workspaceId, String(after), limit, types]);
  }

  /** Sealed events after a seq, every type, oldest first, read in the caller's transaction (the webhook fan-out). */
  async pageIn(tx: Tx, workspaceId: string, after: number, limit: number): Promise<DirectoryEventRow[]> {
    return run(tx, PAGE, [workspaceId, String(after), limit, null]);
  }

  /** The highest seq given in the workspace (0 before its first event). */
  async headSeq(tx: Tx, workspaceId: string): Promise<number> {
    return (await one(tx, HEAD_SEQ, [workspaceId])).seq;
  }

  /** The lowest seq the workspace still keeps; null when it has none. */
  async oldestSeq(workspaceId: string): Promise<number | null> {
    return (await one(this.dataSource, OLDEST_SEQ, [workspaceId])).seq;
  }

  async prune(retentionDays: number): Promise<void> {
    await run(this.dataSource, PRUNE, [retentionDays]);
  }

  async snapshot(workspaceId: string): Promise<DirectorySnapshotRows> {
    const row = await first(this.dataSource, SNAPSHOT, [workspaceId]);
    const directory = row!.directory as unknown as Omit<DirectorySnapshotRows, 'seq'>;
    return { seq: row!.seq, ...directory };
  }
}
