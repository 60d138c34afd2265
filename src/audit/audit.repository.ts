import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { computed, entityColumns } from '../database/row-shape';
import { one, run, statement, statementFamily } from '../database/statement';
import type { Tx } from '../database/unit-of-work';
import { AuditExportQueryDto, AuditQueryDto } from './dto/audit-query.dto';
import { AuditEvent } from './entities/audit-event.entity';
import type { ViewOf } from '../api-docs/response-schema';
import type { AuditEventSchema } from './audit.schemas';

/** The values of one audit row, sanitised, in audit_append's parameter order. */
export interface AuditRowValues {
  workspaceId: string | null;
  eventType: string;
  severity: string;
  actorType: string;
  actorId: string | null;
  actorEmail: string | null;
  targetType: string | null;
  targetId: string | null;
  oauthClientId: string | null;
  ipAddress: string | null;
  userAgent: string | null;
  requestId: string | null;
  message: string;
  /** JSON text. */
  metadata: string;
  createdAt: Date | null;
}

/** An export line: the event and its link in the workspace's hash chain (docs/audit.md). */
export interface AuditExportLine extends AuditEventView {
  chain: { seq: number; prev_hash: string; hash: string; sealed_at: string } | null;
}

/** An audit event as the list API and the export show it. */
export type AuditEventView = ViewOf<typeof AuditEventSchema>;

/**
 * An audit_events row as the statements read it: the entity's columns, with created_at as
 * PostgreSQL's text of the UTC instant (microseconds kept; see SELECT).
 */
export const EVENT = entityColumns(AuditEvent, [
  'id',
  'workspaceId',
  'eventType',
  'severity',
  'actorType',
  'actorId',
  'actorEmail',
  'targetType',
  'targetId',
  'oauthClientId',
  'ipAddress',
  'userAgent',
  'requestId',
  'message',
  'metadata',
]).and(computed({ createdAt: ['created_at', 'text'] }));
export type EventRow = Omit<AuditEvent, 'createdAt'> & { createdAt: string };

// audit_append (migration AuditAppend) never raises: it returns the insert's error text, or null.
const APPEND_EXPRESSION = `audit_append($1::uuid, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::jsonb, $15::timestamptz)`;
const APPEND = statement('audit.append', `SELECT ${APPEND_EXPRESSION} AS error`, computed({ error: 'text?' }));

/**
 * created_at comes back as PostgreSQL's text of the UTC instant, with microseconds:
 * node-postgres would turn a timestamptz into a millisecond Date and a cursor built
 * from it would drop rows. (A ::text cast, reshaped in JavaScript, costs the database
 * less than to_char with a format.) ORDER BY must name audit_events.created_at: a bare
 * created_at resolves to this text output column, which no index serves (a sort of
 * the whole workspace: 625 ms instead of 0.1 ms at 1M events; see docs/benchmarks-history.md).
 */
const SELECT = `SELECT id, workspace_id, event_type, severity, actor_type, actor_id, actor_email, target_type, target_id,
  oauth_client_id, ip_address, user_agent, request_id, message, metadata,
  (created_at AT TIME ZONE 'UTC')::text AS created_at
  FROM audit_events`;

/** The same columns, qualified by the alias `e`, for queries that join audit_events to another table. */
export const EVENT_COLUMNS_E = `e.id, e.workspace_id, e.event_type, e.severity, e.actor_type, e.actor_id, e.actor_email, e.target_type,
  e.target_id, e.oauth_client_id, e.ip_address, e.user_agent, e.request_id, e.message, e.metadata,
  (e.created_at AT TIME ZONE 'UTC')::text AS created_at`;

const EQUALITY_FILTERS = ['event_type', 'severity', 'actor_id', 'actor_type', 'target_id', 'ip_address'] as const;
const EXPORT_BATCH = 1000;

/**
 * The moment before which a workspace's audit order is final (decision 0120): the earlier of now
 * and the start of the oldest transaction in flight that holds a transaction id. A server-stamped
 * row takes its transaction id before it reads the clock (the created_at trigger), so a writer
 * that could still commit a row is either in this minimum (its row is stamped after its start) or
 * had no id yet (its row is stamped after now). Rows before it never gain a neighbour, so a cursor
 * taken from them loses nothing. Sampled before the page's own statement, whose snapshot then
 * sees every transaction that ended meanwhile. Also answers the workspace's newest visible row,
 * so the reader can tell whether the bound holds anything back.
 */
const STABLE_BEFORE = statement(
  'audit.stable-before',
  `SELECT h.stable_before::text AS stable_before,
    COALESCE((SELECT e.created_at FROM audit_events e WHERE e.workspace_id = $1 ORDER BY e.workspace_id, e.created_at DESC LIMIT 1)
      >= h.stable_before, false) AS holds_back
  FROM (SELECT least(clock_timestamp(), min(a.xact_start)) AS stable_before FROM pg_stat_activity a
         WHERE a.datname = current_database() AND a.backend_xid IS NOT NULL AND a.pid <> pg_backend_pid()) h`,
  computed({ stableBefore: ['stable_before', 'text'], holdsBack: ['holds_back', 'boolean'] }),
);

/** How long a reader waits, at most, for writers in flight to end before it answers what is final. */
const STABLE_WAIT_MS = 200;

/**
 * The page query: newest first, keyset on the unique (workspace_id, created_at) index, only rows
 * before `stableBefore` (see STABLE_BEFORE) when given, each row also saying whether the bound
 * holds back any row of the workspace (`held_back`, one index probe per statement). Membership is
 * not part of it: the route's workspace guard (decision 0151) has checked it before the page is read.
 */
export function auditPageQuery(query: AuditQueryDto, stableBefore?: string): { sql: string; params: unknown[] } {
  const where = ['workspace_id = $1'];
  const params: unknown[] = [query.workspace_id];
  const add = (clause: string, value: unknown) => {
    params.push(value);
    where.push(clause.replace('?', `$${params.length}`));
  };
  for (const field of EQUALITY_FILTERS) if (query[field] !== undefined) add(`${field} = ?`, query[field]);
  if (query.from) add('created_at >= ?::timestamptz', query.from);
  if (query.to) add('created_at <= ?::timestamptz', query.to);
  if (query.cursor) add('created_at < ?::timestamptz', query.cursor);
  let heldBack = 'false';
  if (stableBefore) {
    add('created_at < ?::timestamptz', stableBefore);
    const bound = `$${params.length}::timestamptz`;
    heldBack = `EXISTS (SELECT 1 FROM audit_events h WHERE h.workspace_id = $1 AND h.created_at >= ${bound})`;
  }
  params.push((query.limit ?? 50) + 1);
  // ORDER BY the table's column: the select list's text alias has the same name and no index.
  const select = SELECT.replace(' FROM audit_events', `, ${heldBack} AS held_back FROM audit_events`);
  return { sql: `${select} WHERE ${where.join(' AND ')} ORDER BY audit_events.created_at DESC LIMIT $${params.length}`, params };
}

/** The page query's texts (auditPageQuery), with a sample of each kind of page in the catalog. */
const PAGE = statementFamily(
  'audit.page',
  EVENT.and(computed({ heldBack: ['held_back', 'boolean'] })),
  (query: AuditQueryDto, stableBefore?: string) => auditPageQuery(query, stableBefore).sql,
  {
    first: [{ workspace_id: 'ws' }, 'bound'],
    next: [{ workspace_id: 'ws', cursor: 'at' }, 'bound'],
    filtered: [{ workspace_id: 'ws', event_type: 'type', actor_id: 'actor', from: 'from', to: 'to', cursor: 'at' }, 'bound'],
  },
);

const EXPORT_BATCH_TEXT = `SELECT ${EVENT_COLUMNS_E}, c.seq AS chain_seq, c.prev_hash AS chain_prev_hash, c.hash AS chain_hash,
                  (c.sealed_at AT TIME ZONE 'UTC')::text AS chain_sealed_at
             FROM audit_events e LEFT JOIN audit_chain c ON c.event_id = e.id
            WHERE e.workspace_id = $1
             AND ($2::timestamptz IS NULL OR e.created_at >= $2::timestamptz)
             AND ($3::timestamptz IS NULL OR e.created_at <= $3::timestamptz)
             AND ($4::timestamptz IS NULL OR e.created_at > $4::timestamptz)
             AND e.created_at < $5::timestamptz
           ORDER BY e.created_at ASC LIMIT ${EXPORT_BATCH}`;
/** A batch of the export: events oldest first, each with its link in the chain (null columns until sealed). */
const EXPORT_BATCH_STATEMENT = statement(
  'audit.export-batch',
  EXPORT_BATCH_TEXT,
  EVENT.and(
    computed({
      chainSeq: ['chain_seq', 'number?'],
      chainPrevHash: ['chain_prev_hash', 'text?'],
      chainHash: ['chain_hash', 'text?'],
      chainSealedAt: ['chain_sealed_at', 'text?'],
    }),
  ),
);

/**
 * audit_events: appended by the audit writer only, read newest first by a keyset on the
 * unique (workspace_id, created_at). SQL text here: the append is one call of a function that
 * cannot fail its caller's transaction, and the page is a prepared statement on its index.
 *
 * Order: a workspace's events are totally ordered by created_at, unique per workspace to the
 * microsecond (the created_at trigger claims each microsecond without waiting on other writers);
 * a row's place in that order is final once it is before `stableBefore` — what readers return
 * and what anything that chains the log in order should consume (decision 0120).
 */
@Injectable()
export class AuditRepository {
  /**
   * The latest bound this instance took. Any bound taken before a page's statement is as safe for
   * it as a fresh one (an older one only holds back more), so a page first tries this one and
   * takes a fresh bound only when it holds back a row of the workspace or the page is empty.
   */
  private lastBound: string | null = null;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Appends on the caller's transaction (tx) or on its own (null); answers the insert's error, or null. */
  async append(tx: Tx | null, row: AuditRowValues): Promise<string | null> {
    return (await one(tx ?? this.dataSource, APPEND, toParams(row))).error;
  }

  /** The append as an expression for a one-statement unit of work (its value: the error, or null). */
  appendExpression(row: AuditRowValues): { expression: string; params: unknown[] } {
    return { expression: APPEND_EXPRESSION, params: toParams(row) };
  }

  /** One page of the workspace (limit + 1 rows, to tell whether there is more); the caller has checked membership. */
  async page(query: AuditQueryDto): Promise<AuditEventView[]> {
    if (this.lastBound !== null) {
      const rows = await this.pageBefore(query, this.lastBound);
      if (rows.length > 0 && !rows[0].heldBack) return rows.map(toView);
    }
    return (await this.pageBefore(query, await this.stableBefore(query.workspace_id))).map(toView);
  }

  private pageBefore(query: AuditQueryDto, stableBefore: string) {
    const { sql, params } = auditPageQuery(query, stableBefore);
    return run(this.dataSource, PAGE.of(sql), params);
  }

  /**
   * The bound before which the workspace's order is final (STABLE_BEFORE), as PostgreSQL's text of
   * the instant (microseconds kept). When it holds back the workspace's newest rows, waits a few
   * milliseconds at a time (up to STABLE_WAIT_MS) for the writers in flight to end, so a client
   * reads its own write as soon as the writes that began before it have committed.
   */
  async stableBefore(workspaceId: string): Promise<string> {
    const deadline = Date.now() + STABLE_WAIT_MS;
    for (let pause = 2; ; pause = Math.min(pause * 2, 25)) {
      const bound = await one(this.dataSource, STABLE_BEFORE, [workspaceId]);
      this.lastBound = bound.stableBefore;
      if (!bound.holdsBack || Date.now() >= deadline) return this.lastBound;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  /**
   * Oldest first, in batches, for the NDJSON export: what is final when it starts, each event with
   * its link in the chain (null until sealed).
   */
  async *exportRange(query: AuditExportQueryDto): AsyncGenerator<AuditExportLine> {
    const stableBefore = await this.stableBefore(query.workspace_id);
    let after: string | null = null;
    for (;;) {
      const rows: AuditExportLine[] = (
        await run(this.dataSource, EXPORT_BATCH_STATEMENT, [query.workspace_id, query.from ?? null, query.to ?? null, after, stableBefore])
      ).map(toExportLine);
      yield* rows;
      if (rows.length < EXPORT_BATCH) return;
      after = rows[rows.length - 1].created_at;
    }
  }
}

function toParams(row: AuditRowValues): unknown[] {
  return [
    row.workspaceId,
    row.eventType,
    row.severity,
    row.actorType,
    row.actorId,
    row.actorEmail,
    row.targetType,
    row.targetId,
    row.oauthClientId,
    row.ipAddress,
    row.userAgent,
    row.requestId,
    row.message,
    row.metadata,
    row.createdAt,
  ];
}

/** An event row as the list API and the export show it. */
export function toView(row: EventRow): AuditEventView {
  return {
    id: row.id,
    workspace_id: row.workspaceId,
    event_type: row.eventType,
    // audit_events_severity_check holds the column to these three words.
    severity: row.severity as AuditEventView['severity'],
    actor_type: row.actorType,
    actor_id: row.actorId,
    actor_email: row.actorEmail,
    target_type: row.targetType,
    target_id: row.targetId,
    oauth_client_id: row.oauthClientId,
    ip_address: row.ipAddress,
    user_agent: row.userAgent,
    request_id: row.requestId,
    message: row.message,
    metadata: row.metadata,
    created_at: utcTextToIsoMicros(row.createdAt),
  };
}

/**
 * PostgreSQL's ISO text of a UTC timestamp ('2026-11-22 00:26:46.1234', trailing zeros of
 * the fraction trimmed, no fraction at all on a whole second) as RFC 3339 with exactly six
 * fractional digits: '2026-11-22T00:26:46.123400Z'.
 */
export function utcTextToIsoMicros(value: string): string {
  const space = value.indexOf(' ');
  const dot = value.indexOf('.', space);
  const whole = dot < 0 ? value.slice(space + 1) : value.slice(space + 1, dot);
  const fraction = dot < 0 ? '' : value.slice(dot + 1);
  return `${value.slice(0, space)}T${whole}.${fraction.padEnd(6, '0')}Z`;
}

type ExportRow = EventRow & {
  chainSeq: number | null;
  chainPrevHash: string | null;
  chainHash: string | null;
  chainSealedAt: string | null;
};

function toExportLine(row: ExportRow): AuditExportLine {
  return {
    ...toView(row),
    chain:
      row.chainSeq === null
        ? null
        : { seq: row.chainSeq, prev_hash: row.chainPrevHash!, hash: row.chainHash!, sealed_at: utcTextToIsoMicros(row.chainSealedAt!) },
  };
}
