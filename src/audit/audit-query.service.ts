import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { preparedQuery } from '../database/prepared-query';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { AuditExportQueryDto, AuditQueryDto } from './dto/audit-query.dto';

/**
 * created_at comes back as PostgreSQL's text of the UTC instant, with microseconds:
 * node-postgres would turn a timestamptz into a millisecond Date and a cursor built
 * from it would drop rows. (A ::text cast, reshaped in JavaScript, costs the database
 * less than to_char with a format.) ORDER BY must name audit_events.created_at: a bare
 * created_at resolves to this text output column, which no index serves (a sort of
 * the whole workspace: 625 ms instead of 0.1 ms at 1M events; see BENCHMARKS.md).
 */
const SELECT = `SELECT id, workspace_id, event_type, severity, actor_type, actor_id, actor_email, target_type, target_id,
  oauth_client_id, ip_address, user_agent, request_id, message, metadata,
  (created_at AT TIME ZONE 'UTC')::text AS created_at
  FROM audit_events`;

/**
 * PostgreSQL's ISO text of a UTC timestamp ('2026-11-22 00:26:46.1234', trailing zeros of
 * the fraction trimmed, no fraction at all on a whole second) as RFC 3339 with exactly six
 * fractional digits: '2026-11-22T00:26:46.123400Z'.
 */
export function utcTextToIsoMicros(text: string): string {
  const space = text.indexOf(' ');
  const dot = text.indexOf('.', space);
  const whole = dot < 0 ? text.slice(space + 1) : text.slice(space + 1, dot);
  const fraction = dot < 0 ? '' : text.slice(dot + 1);
  return `${text.slice(0, space)}T${whole}.${fraction.padEnd(6, '0')}Z`;
}

function toView(row: AuditEventView): AuditEventView {
  row.created_at = utcTextToIsoMicros(row.created_at);
  return row;
}

const EQUALITY_FILTERS = ['event_type', 'severity', 'actor_id', 'actor_type', 'target_id', 'ip_address'] as const;
const EXPORT_BATCH = 1000;

/**
 * The page query: newest first, keyset on the unique (workspace_id, created_at) index.
 * Membership is part of the query (one round trip on the hot path); the caller tells an empty
 * page apart from "not a member" (404) with a second look.
 */
export function auditPageQuery(developerId: string, query: AuditQueryDto): { sql: string; params: unknown[] } {
  const where = ['workspace_id = $1', 'EXISTS (SELECT 1 FROM workspace_members m WHERE m.workspace_id = $1 AND m.developer_id = $2)'];
  const params: unknown[] = [query.workspace_id, developerId];
  const add = (clause: string, value: unknown) => {
    params.push(value);
    where.push(clause.replace('?', `$${params.length}`));
  };
  for (const field of EQUALITY_FILTERS) if (query[field] !== undefined) add(`${field} = ?`, query[field]);
  if (query.from) add('created_at >= ?::timestamptz', query.from);
  if (query.to) add('created_at <= ?::timestamptz', query.to);
  if (query.cursor) add('created_at < ?::timestamptz', query.cursor);
  params.push((query.limit ?? 50) + 1);
  // ORDER BY the table's column: the select list's text alias has the same name and no index.
  return { sql: `${SELECT} WHERE ${where.join(' AND ')} ORDER BY audit_events.created_at DESC LIMIT $${params.length}`, params };
}

export interface AuditEventView {
  id: string;
  created_at: string;
  [field: string]: unknown;
}

/** Reads of the audit log: newest first, keyset pagination on the unique created_at. */
@Injectable()
export class AuditQueryService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly workspaces: WorkspacesService,
  ) {}

  async list(developerId: string, query: AuditQueryDto) {
    const limit = query.limit ?? 50;
    const { sql, params } = auditPageQuery(developerId, query);
    const rows = (await preparedQuery<AuditEventView>(this.dataSource, sql, params)).map(toView);
    if (rows.length === 0) await this.workspaces.assertMember(developerId, query.workspace_id);
    const hasMore = rows.length > limit;
    const results = hasMore ? rows.slice(0, limit) : rows;
    return { results, next_cursor: hasMore ? results[results.length - 1].created_at : null, limit };
  }

  /** Oldest first, in batches, for the NDJSON export. */
  async *export(developerId: string, query: AuditExportQueryDto): AsyncGenerator<AuditEventView> {
    await this.workspaces.assertMember(developerId, query.workspace_id);
    let after: string | null = null;
    for (;;) {
      const rows = (await this.dataSource.query(
        `${SELECT} WHERE workspace_id = $1
           AND ($2::timestamptz IS NULL OR created_at >= $2::timestamptz)
           AND ($3::timestamptz IS NULL OR created_at <= $3::timestamptz)
           AND ($4::timestamptz IS NULL OR created_at > $4::timestamptz)
         ORDER BY audit_events.created_at ASC LIMIT ${EXPORT_BATCH}`,
        [query.workspace_id, query.from ?? null, query.to ?? null, after],
      )) as AuditEventView[];
      rows.forEach(toView);
      yield* rows;
      if (rows.length < EXPORT_BATCH) return;
      after = rows[rows.length - 1].created_at;
    }
  }
}
