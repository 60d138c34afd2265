import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { computed, entityColumns, nested, NO_ROW } from '../database/row-shape';
import { first, one, run, statement, statementFamily } from '../database/statement';
import type { Tx } from '../database/unit-of-work';
import { AuditEventView, EVENT, EVENT_COLUMNS_E, EventRow, toView, utcTextToIsoMicros } from './audit.repository';
import { ChainLink, CheckpointView } from './chain/chain';
import { AuditChainEntry } from './entities/audit-chain-entry.entity';
import { AuditCheckpoint } from './entities/audit-checkpoint.entity';

/** A new link, as the sealer computed it. */
export interface NewLink {
  eventId: string;
  workspaceId: string;
  seq: number;
  prevHash: string;
  hash: string;
  /** RFC 3339 with microseconds, exactly as hashed. */
  sealedAt: string;
}

/** Where a sealing pass continues: after this event (created_at is unique per workspace). */
export interface UnsealedKey {
  workspaceId: string;
  createdAt: string;
}

export interface ChainHead {
  workspaceId: string;
  seq: number;
  eventId: string;
  hash: string;
}

// Key of the transaction-scoped advisory lock that makes one sealer at a time (across instances).
const SEALER_LOCK = 7100710;

/**
 * Events not sealed yet: events with no link, found by an anti-join. With `since`, only rows from
 * the oldest transaction open at the previous pass on (no older row can still become visible,
 * decision 0710; the BRIN index serves the range); with `after`, the rows after the previous batch
 * of the pass. Per workspace oldest first (the chain follows the log's order as closely as commits
 * allow), walking the (workspace_id, created_at DESC) index backwards, so that a sweep's batches are
 * index ranges. One statement text per combination (no `$n IS NULL OR …`), so that each prepared
 * plan can use its bounds.
 */
function unsealedQuery(limit: number, since: string | null, after: UnsealedKey | null): { sql: string; params: unknown[] } {
  const params: unknown[] = [limit];
  const where = ['e.workspace_id IS NOT NULL'];
  if (since) {
    params.push(since);
    where.push(`e.created_at >= $${params.length}::timestamptz`);
  }
  if (after) {
    params.push(after.workspaceId, after.createdAt);
    const [ws, at] = [params.length - 1, params.length];
    where.push(`e.workspace_id <= $${ws}::uuid`, `(e.workspace_id < $${ws}::uuid OR e.created_at > $${at}::timestamptz)`);
  }
  where.push('NOT EXISTS (SELECT 1 FROM audit_chain c WHERE c.event_id = e.id)');
  return {
    sql: `SELECT ${EVENT_COLUMNS_E} FROM audit_events e WHERE ${where.join(' AND ')} ORDER BY e.workspace_id DESC, e.created_at ASC LIMIT $1`,
    params,
  };
}

const UNSEALED = statementFamily(
  'audit-chain.unsealed',
  EVENT,
  (since: boolean, after: boolean) => unsealedQuery(0, since ? 'since' : null, after ? { workspaceId: 'ws', createdAt: 'at' } : null).sql,
  { sweep: [false, false], since: [true, false], 'since-after': [true, true], after: [false, true] },
);

const HEAD = entityColumns(AuditChainEntry, ['workspaceId', 'seq', 'eventId', 'hash']);
const HEADS = statement(
  'audit-chain.heads',
  `SELECT DISTINCT ON (c.workspace_id) c.workspace_id, c.seq, c.event_id, c.hash
  FROM audit_chain c WHERE c.workspace_id = ANY($1::uuid[]) ORDER BY c.workspace_id, c.seq DESC`,
  HEAD,
);

const INSERT_LINKS = statement(
  'audit-chain.insert-links',
  `INSERT INTO audit_chain (event_id, workspace_id, seq, prev_hash, hash, sealed_at)
  SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::bigint[], $4::text[], $5::text[], $6::timestamptz[])`,
  NO_ROW,
);

/** signed_at as PostgreSQL's text of the UTC instant (microseconds kept: it is signed). */
const SIGNED_AT = computed({ signedAt: ['signed_at', 'text'] });
const LAST_CHECKPOINTS = statement(
  'audit-chain.last-checkpoints',
  `SELECT DISTINCT ON (k.workspace_id) k.workspace_id, k.seq, (k.signed_at AT TIME ZONE 'UTC')::text AS signed_at
  FROM audit_checkpoints k WHERE k.workspace_id = ANY($1::uuid[]) ORDER BY k.workspace_id, k.seq DESC`,
  entityColumns(AuditCheckpoint, ['workspaceId', 'seq']).and(SIGNED_AT),
);

const CHECKPOINT_COLUMNS = `k.id, k.workspace_id, k.seq, k.event_id, k.hash, k.key_id, k.signature,
  (k.signed_at AT TIME ZONE 'UTC')::text AS signed_at`;
const CHECKPOINT = entityColumns(AuditCheckpoint, ['id', 'workspaceId', 'seq', 'eventId', 'hash', 'keyId', 'signature']).and(SIGNED_AT);
type CheckpointRow = Omit<AuditCheckpoint, 'signedAt'> & { signedAt: string };

/** Links of one workspace after a seq, up to another, each with its event (null when the row is gone). */
const LINKS = statement(
  'audit-chain.links',
  `SELECT c.seq, c.event_id AS link_event_id, c.prev_hash, c.hash, (c.sealed_at AT TIME ZONE 'UTC')::text AS sealed_at,
    e.id AS event_present, ${EVENT_COLUMNS_E}
  FROM audit_chain c LEFT JOIN audit_events e ON e.id = c.event_id
  WHERE c.workspace_id = $1 AND c.seq > $2 AND c.seq <= $3
  ORDER BY c.seq LIMIT $4`,
  entityColumns(AuditChainEntry, ['seq', 'prevHash', 'hash'])
    .and(computed({ linkEventId: ['link_event_id', 'text'], linkSealedAt: ['sealed_at', 'text'] }))
    .and(nested('event', EVENT, 'event_present')),
);

const LOCK_SEALER = statement(
  'audit-chain.lock-sealer',
  `SELECT pg_try_advisory_xact_lock($1) AS locked,
              to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS now`,
  computed({ locked: 'boolean', now: 'text' }),
);

/** A loose index scan: one probe of (workspace_id, seq) per workspace, never the whole chain. */
const UNSIGNED_HEADS = statement(
  'audit-chain.unsigned-heads',
  `WITH RECURSIVE ws AS (
         (SELECT workspace_id FROM audit_chain ORDER BY workspace_id LIMIT 1)
         UNION ALL
         SELECT (SELECT c.workspace_id FROM audit_chain c WHERE c.workspace_id > ws.workspace_id ORDER BY c.workspace_id LIMIT 1)
           FROM ws WHERE ws.workspace_id IS NOT NULL
       )
       SELECT h.workspace_id, h.seq, h.event_id, h.hash
         FROM ws CROSS JOIN LATERAL (
           SELECT c.workspace_id, c.seq, c.event_id, c.hash FROM audit_chain c
            WHERE c.workspace_id = ws.workspace_id ORDER BY c.seq DESC LIMIT 1
         ) h
        WHERE NOT EXISTS (SELECT 1 FROM audit_checkpoints k WHERE k.workspace_id = h.workspace_id AND k.seq >= h.seq)`,
  HEAD,
);

const OLDEST_OPEN_TRANSACTION = statement(
  'audit-chain.oldest-open-transaction',
  `SELECT to_char(COALESCE(min(xact_start), now()) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS since
           FROM pg_stat_activity WHERE datname = current_database() AND xact_start IS NOT NULL`,
  computed({ since: 'text?' }),
);

const SUMMARIZE_NEW_RANGES = statement(
  'audit-chain.summarize-new-ranges',
  `SELECT brin_summarize_new_values('audit_events_created_brin'::regclass) AS ranges`,
  computed({ ranges: 'number' }),
);

const HEAD_SEQ = statement(
  'audit-chain.head-seq',
  `SELECT COALESCE(max(seq), 0) AS seq FROM audit_chain WHERE workspace_id = $1`,
  computed({ seq: 'number' }),
);

const INSERT_CHECKPOINT = statement(
  'audit-chain.insert-checkpoint',
  `INSERT INTO audit_checkpoints (workspace_id, seq, event_id, hash, key_id, signature, signed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
  NO_ROW,
);

const CHECKPOINTS_SIGNED = statement(
  'audit-chain.checkpoints-signed',
  `SELECT ${CHECKPOINT_COLUMNS} FROM audit_checkpoints k
        WHERE k.workspace_id = $1 AND k.seq > $2
          AND ($3::timestamptz IS NULL OR k.signed_at >= $3::timestamptz)
          AND ($4::timestamptz IS NULL OR k.signed_at <= $4::timestamptz)
        ORDER BY k.seq, k.signed_at LIMIT $5`,
  CHECKPOINT,
);

const CHECKPOINTS_COVERING = statement(
  'audit-chain.checkpoints-covering',
  `SELECT ${CHECKPOINT_COLUMNS} FROM audit_checkpoints k WHERE k.workspace_id = $1 AND k.seq BETWEEN $2 AND $3 ORDER BY k.seq`,
  CHECKPOINT,
);

const SEQ_RANGE = statement(
  'audit-chain.seq-range',
  `SELECT min(seq) AS first, max(seq) AS last FROM audit_chain
        WHERE workspace_id = $1
          AND ($2::timestamptz IS NULL OR sealed_at >= $2::timestamptz)
          AND ($3::timestamptz IS NULL OR sealed_at <= $3::timestamptz)`,
  computed({ first: 'number?', last: 'number?' }),
);

/**
 * audit_chain and audit_checkpoints: the tamper evidence over audit_events (decision 0710).
 * Written by the sealer only; read by verification, the checkpoint list and the webhook
 * dispatcher (which follows a workspace's chain as its outbox, decision 0711).
 */
@Injectable()
export class AuditChainRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Takes the sealer's transaction-scoped advisory lock (released at commit) and answers the
   * database's clock as RFC 3339 with microseconds; null when another sealer holds the lock.
   */
  async lockSealer(tx: Tx): Promise<string | null> {
    const row = await one(tx, LOCK_SEALER, [SEALER_LOCK]);
    return row.locked ? row.now : null;
  }

  /** The head of every workspace whose last link is not covered by a checkpoint yet. */
  async unsignedHeads(tx: Tx): Promise<ChainHead[]> {
    return (await run(tx, UNSIGNED_HEADS, [])).map(toHead);
  }

  async unsealed(tx: Tx, limit: number, since: string | null, after: UnsealedKey | null): Promise<AuditEventView[]> {
    const { sql, params } = unsealedQuery(limit, since, after);
    return (await run(tx, UNSEALED.of(sql), params)).map(toView);
  }

  /**
   * When the oldest transaction now open on this database started (now, if none): every audit row
   * not yet visible belongs to such a transaction, so its created_at (stamped at insert, inside it)
   * is not older. Null when the server cannot say (no access to pg_stat_activity): then every pass
   * scans the whole log.
   */
  async oldestOpenTransaction(): Promise<string | null> {
    try {
      return (await first(this.dataSource, OLDEST_OPEN_TRANSACTION, []))?.since ?? null;
    } catch {
      return null;
    }
  }

  /**
   * Summarizes the created_at BRIN ranges filled since the last call, so the sealer's look for new
   * events reads only the open tail (migration 1795600000000). Returns how many ranges it summarized.
   */
  async summarizeNewRanges(): Promise<number> {
    return (await one(this.dataSource, SUMMARIZE_NEW_RANGES, [])).ranges;
  }

  async heads(tx: Tx, workspaceIds: string[]): Promise<ChainHead[]> {
    return (await run(tx, HEADS, [workspaceIds])).map(toHead);
  }

  /** The workspace's last seq (0 before its first link). */
  async headSeq(tx: Tx | null, workspaceId: string): Promise<number> {
    return (await one(tx ?? this.dataSource, HEAD_SEQ, [workspaceId])).seq;
  }

  async insertLinks(tx: Tx, links: NewLink[]): Promise<void> {
    await run(tx, INSERT_LINKS, [
      links.map((l) => l.eventId),
      links.map((l) => l.workspaceId),
      links.map((l) => String(l.seq)),
      links.map((l) => l.prevHash),
      links.map((l) => l.hash),
      links.map((l) => l.sealedAt),
    ]);
  }

  /** The newest checkpoint of each workspace that has one. */
  async lastCheckpoints(tx: Tx, workspaceIds: string[]): Promise<Map<string, { seq: number; signedAt: string }>> {
    const rows = await run(tx, LAST_CHECKPOINTS, [workspaceIds]);
    return new Map(rows.map((row) => [row.workspaceId, { seq: Number(row.seq), signedAt: utcTextToIsoMicros(row.signedAt) }]));
  }

  async insertCheckpoint(tx: Tx, c: Omit<CheckpointView, 'id'>): Promise<void> {
    await run(tx, INSERT_CHECKPOINT, [c.workspace_id, String(c.seq), c.event_id, c.hash, c.key_id, c.signature, c.signed_at]);
  }

  /** Checkpoints signed in [from, to], after a seq, oldest first (limit + 1 rows, to tell whether there is more). */
  async checkpointsSigned(
    workspaceId: string,
    range: { from?: string; to?: string; afterSeq: number; limit: number },
  ): Promise<CheckpointView[]> {
    const params = [workspaceId, String(range.afterSeq), range.from ?? null, range.to ?? null, range.limit + 1];
    return (await run(this.dataSource, CHECKPOINTS_SIGNED, params)).map(toCheckpoint);
  }

  /** Checkpoints whose seq lies in [firstSeq, lastSeq]. */
  async checkpointsCovering(workspaceId: string, firstSeq: number, lastSeq: number): Promise<CheckpointView[]> {
    return (await run(this.dataSource, CHECKPOINTS_COVERING, [workspaceId, String(firstSeq), String(lastSeq)])).map(toCheckpoint);
  }

  /** The first and last seq of the links sealed in [from, to]; null when there is none. */
  async seqRange(workspaceId: string, from?: string, to?: string): Promise<{ first: number; last: number } | null> {
    const row = await one(this.dataSource, SEQ_RANGE, [workspaceId, from ?? null, to ?? null]);
    return row.first === null || row.last === null ? null : { first: row.first, last: row.last };
  }

  /** Links with seq in (afterSeq, lastSeq], in order, at most `limit`, on `tx` or the pool. */
  async links(tx: Tx | null, workspaceId: string, afterSeq: number, lastSeq: number, limit: number): Promise<ChainLink[]> {
    return (await run(tx ?? this.dataSource, LINKS, [workspaceId, String(afterSeq), String(lastSeq), limit])).map(toLink);
  }
}

type LinkRow = Pick<AuditChainEntry, 'seq' | 'prevHash' | 'hash'> & { linkEventId: string; linkSealedAt: string; event: EventRow | null };

function toLink(row: LinkRow): ChainLink {
  return {
    seq: Number(row.seq),
    event_id: row.linkEventId,
    prev_hash: row.prevHash,
    hash: row.hash,
    sealed_at: utcTextToIsoMicros(row.linkSealedAt),
    event: row.event === null ? null : toView(row.event),
  };
}

function toCheckpoint(row: CheckpointRow): CheckpointView {
  return {
    id: row.id,
    workspace_id: row.workspaceId,
    seq: Number(row.seq),
    event_id: row.eventId,
    hash: row.hash,
    key_id: row.keyId,
    signature: row.signature,
    signed_at: utcTextToIsoMicros(row.signedAt),
  };
}

function toHead(row: Pick<AuditChainEntry, 'workspaceId' | 'seq' | 'eventId' | 'hash'>): ChainHead {
  return { workspaceId: row.workspaceId, seq: Number(row.seq), eventId: row.eventId, hash: row.hash };
}
