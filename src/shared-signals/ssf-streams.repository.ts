import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, IsNull, LessThan, Not } from 'typeorm';
import { computed, entityColumns, NO_ROW } from '../database/row-shape';
import { first, run, statement } from '../database/statement';
import type { Tx } from '../database/unit-of-work';
import { insertWorkspaceRow } from '../database/workspace-row';
import { SsfSet } from './entities/ssf-set.entity';
import { SsfStreamSubject } from './entities/ssf-stream-subject.entity';
import { DeliveryMethod, SsfStream, StreamStatus } from './entities/ssf-stream.entity';

/** Streams that are not paused and have directory events or audit links after their positions (decisions 0521, 0525). */
const BEHIND = statement(
  'ssf-streams.behind',
  `SELECT s.id FROM ssf_streams s
        WHERE s.status <> 'paused'
          AND (s.position < (SELECT COALESCE(max(d.seq), 0) FROM directory_events d WHERE d.workspace_id = s.workspace_id)
            OR s.audit_position < (SELECT COALESCE(max(c.seq), 0) FROM audit_chain c WHERE c.workspace_id = s.workspace_id))`,
  entityColumns(SsfStream, ['id']),
);

/** A new stream starts at its workspace's heads: it carries what happens from now on. */
const HEAD = statement(
  'ssf-streams.head',
  `SELECT (SELECT COALESCE(max(d.seq), 0) FROM directory_events d WHERE d.workspace_id = $1)::bigint AS position,
          (SELECT COALESCE(max(c.seq), 0) FROM audit_chain c WHERE c.workspace_id = $1)::bigint AS audit_position`,
  entityColumns(SsfStream, ['position', 'auditPosition']),
);

/** Pending SETs of a poll stream, oldest first; `FOR UPDATE SKIP LOCKED` is not needed: a SET may be returned twice (at least once). */
const PENDING = statement(
  'ssf-streams.pending',
  `SELECT id, jti, token FROM ssf_sets WHERE workspace_id = $1 AND stream_id = $2 AND status = 'pending'
        ORDER BY made LIMIT $3`,
  entityColumns(SsfSet, ['id', 'jti', 'token']),
);

const ACKNOWLEDGE = statement(
  'ssf-streams.acknowledge',
  `UPDATE ssf_sets SET status = 'acknowledged', delivered_at = now()
        WHERE workspace_id = $1 AND stream_id = $2 AND jti = ANY($3::text[]) AND status = 'pending'`,
  NO_ROW,
);

const REJECT = statement(
  'ssf-streams.reject',
  `UPDATE ssf_sets SET status = 'failed', last_error = e.error
        FROM unnest($3::text[], $4::text[]) AS e(jti, error)
        WHERE ssf_sets.workspace_id = $1 AND ssf_sets.stream_id = $2 AND ssf_sets.jti = e.jti AND ssf_sets.status = 'pending'`,
  NO_ROW,
);

/**
 * Push (decision 0972): takes the stream's push lease for job `$3` (free, expired, or already its
 * own) and reads its first pending SETs in `made` order, in one statement. A lease held by another
 * job is left alone and marked `push_again`, so that its holder reads again before letting go.
 * Push streams with an endpoint only.
 */
const PUSH_CLAIM = statement(
  'ssf-streams.push-claim',
  `WITH s AS (
      UPDATE ssf_streams
         SET push_again = push_again OR NOT (push_leased_by IS NULL OR push_leased_by = $3 OR push_lease_until < now()),
             push_lease_until = CASE WHEN push_leased_by IS NULL OR push_leased_by = $3 OR push_lease_until < now()
                                     THEN now() + ($4 || ' milliseconds')::interval ELSE push_lease_until END,
             push_leased_by = CASE WHEN push_leased_by IS NULL OR push_leased_by = $3 OR push_lease_until < now()
                                   THEN $3 ELSE push_leased_by END
       WHERE workspace_id = $1 AND id = $2 AND delivery_method = 'urn:ietf:rfc:8935' AND endpoint_url IS NOT NULL
      RETURNING id, push_leased_by = $3 AS mine, endpoint_url, authorization_encrypted)
   SELECT s.mine, s.endpoint_url, s.authorization_encrypted, p.id AS set_id, p.jti, p.token, p.attempts
     FROM s LEFT JOIN LATERAL (
          SELECT id, jti, token, attempts, made FROM ssf_sets
           WHERE workspace_id = $1 AND stream_id = s.id AND status = 'pending'
           ORDER BY made LIMIT $5) p ON s.mine
    ORDER BY p.made`,
  computed({
    mine: 'boolean',
    endpointUrl: ['endpoint_url', 'text'],
    authorizationEncrypted: ['authorization_encrypted', 'text?'],
    setId: ['set_id', 'text?'],
    jti: 'text?',
    token: 'text?',
    attempts: 'number?',
  }),
);

/** The outcomes of one batch of pushes ($4 ids, $5 statuses, $6 errors), each an attempt more; pending SETs only. */
const RECORD_OUTCOMES = `recorded AS (
      UPDATE ssf_sets SET status = o.status, last_error = o.error, attempts = ssf_sets.attempts + 1,
             delivered_at = CASE WHEN o.status = 'delivered' THEN now() ELSE ssf_sets.delivered_at END
        FROM unnest($4::uuid[], $5::text[], $6::text[]) AS o(id, status, error)
       WHERE ssf_sets.workspace_id = $1 AND ssf_sets.stream_id = $2 AND ssf_sets.id = o.id AND ssf_sets.status = 'pending')`;

/**
 * Push: records a batch's outcomes and, when `$7`, lets the lease go unless a SET was made
 * meanwhile (`push_again`), in one statement. Answers `again` (keep draining) while job `$3`
 * still holds the lease; no row when it lost it.
 */
const PUSH_SETTLE = statement(
  'ssf-streams.push-settle',
  `WITH ${RECORD_OUTCOMES}
   UPDATE ssf_streams
      SET push_leased_by = CASE WHEN $7::boolean AND NOT push_again THEN NULL ELSE push_leased_by END,
          push_lease_until = CASE WHEN $7::boolean AND NOT push_again THEN NULL ELSE push_lease_until END,
          push_again = CASE WHEN $7::boolean THEN false ELSE push_again END
    WHERE workspace_id = $1 AND id = $2 AND push_leased_by = $3
   RETURNING push_leased_by IS NOT NULL AS again`,
  computed({ again: 'boolean' }),
);

/** Push: records a batch's outcomes and hands the lease from job `$3` to job `$7` until `$8` (its retry, or a fresh job). */
const PUSH_HAND_OVER = statement(
  'ssf-streams.push-hand-over',
  `WITH ${RECORD_OUTCOMES}
   UPDATE ssf_streams SET push_leased_by = $7, push_lease_until = $8::timestamptz, push_again = false
    WHERE workspace_id = $1 AND id = $2 AND push_leased_by = $3`,
  NO_ROW,
);

/**
 * A SET was made for a push stream whose lease a job holds: that job reads again before letting
 * go, and no job is queued. Runs under the stream's row lock (the maker's), so the holder's
 * release waits for it. No row: no live lease, queue a job.
 */
const PUSH_POKE = statement(
  'ssf-streams.push-poke',
  `UPDATE ssf_streams SET push_again = true
    WHERE workspace_id = $1 AND id = $2 AND push_leased_by IS NOT NULL AND push_lease_until > clock_timestamp()
   RETURNING id`,
  entityColumns(SsfStream, ['id']),
);

/**
 * The person as the directory event before `seq` showed them (an update's old email). Walks the
 * workspace's events back from `seq` by its (workspace_id, seq) index; only updates that touch
 * userName or emails ask.
 */
const PREVIOUS_USER = statement(
  'ssf-streams.previous-user',
  `SELECT d.data FROM directory_events d
        WHERE d.workspace_id = $1 AND d.resource_id = $2 AND d.seq < $3 AND d.type LIKE 'directory.user.%'
        ORDER BY d.seq DESC LIMIT 1`,
  computed({ data: 'json' }),
);

export interface StreamValues {
  deliveryMethod: DeliveryMethod;
  endpointUrl: string | null;
  authorizationEncrypted: string | null;
  eventsRequested: string[];
  description: string | null;
}

/** A pending SET as push sends it. */
export interface PendingPush {
  id: string;
  jti: string;
  token: string;
  attempts: number;
}

export interface PushBatch {
  mine: boolean;
  endpointUrl: string;
  authorizationEncrypted: string | null;
  sets: PendingPush[];
}

/** What one POST of a SET came to: still pending (to retry), delivered or failed for good. */
export interface PushOutcome {
  id: string;
  status: 'pending' | 'delivered' | 'failed';
  error: string | null;
}

function outcomeColumns(outcomes: PushOutcome[]): [string[], string[], (string | null)[]] {
  return [outcomes.map((o) => o.id), outcomes.map((o) => o.status), outcomes.map((o) => o.error)];
}

export interface NewSet {
  workspaceId: string;
  streamId: string;
  jti: string;
  eventType: string;
  token: string;
}

/** ssf_streams, their subjects and their SETs. Tenant methods take the workspace first. */
@Injectable()
export class SsfStreamsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(tx: Tx, workspaceId: string, receiverId: string, values: StreamValues): Promise<SsfStream> {
    const [{ position, auditPosition }] = await run(tx, HEAD, [workspaceId]);
    return insertWorkspaceRow(tx, SsfStream, { workspaceId, receiverId, ...values, position, auditPosition });
  }

  /** The receiver's stream (one per receiver), locked for update when `tx` is given. */
  findForReceiver(tx: Tx | null, workspaceId: string, receiverId: string): Promise<SsfStream | null> {
    const repo = (tx ?? this.dataSource.manager).getRepository(SsfStream);
    return repo.findOne({ where: { workspaceId, receiverId }, ...(tx ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
  }

  listForReceivers(workspaceId: string, receiverIds: string[]): Promise<SsfStream[]> {
    if (receiverIds.length === 0) return Promise.resolve([]);
    return this.dataSource.getRepository(SsfStream).findBy({ workspaceId, receiverId: In(receiverIds) });
  }

  async update(tx: Tx, workspaceId: string, id: string, values: Partial<StreamValues>): Promise<void> {
    await tx.getRepository(SsfStream).update({ workspaceId, id }, { ...values, updatedAt: () => 'now()' });
  }

  async setStatus(tx: Tx, workspaceId: string, id: string, status: StreamStatus, reason: string | null): Promise<void> {
    await tx.getRepository(SsfStream).update({ workspaceId, id }, { status, statusReason: reason, updatedAt: () => 'now()' });
  }

  async delete(tx: Tx, workspaceId: string, id: string): Promise<boolean> {
    const result = await tx.getRepository(SsfStream).delete({ workspaceId, id });
    return (result.affected ?? 0) > 0;
  }

  /** Adds (or re-includes) a subject. */
  async include(tx: Tx, workspaceId: string, streamId: string, key: string, subject: Record<string, string>): Promise<void> {
    await tx.getRepository(SsfStreamSubject).upsert({ workspaceId, streamId, key, subject, excluded: false }, ['streamId', 'key']);
  }

  /** Removes a subject: from a NONE stream the row goes; an ALL stream remembers it as excluded. */
  async exclude(
    tx: Tx,
    workspaceId: string,
    streamId: string,
    key: string,
    subject: Record<string, string>,
    remember: boolean,
  ): Promise<void> {
    const repo = tx.getRepository(SsfStreamSubject);
    if (remember) await repo.upsert({ workspaceId, streamId, key, subject, excluded: true }, ['streamId', 'key']);
    else await repo.delete({ workspaceId, streamId, key });
  }

  /** The stream's rows among these keys. */
  subjects(tx: Tx, workspaceId: string, streamId: string, keys: string[]): Promise<SsfStreamSubject[]> {
    if (keys.length === 0) return Promise.resolve([]);
    return tx.getRepository(SsfStreamSubject).findBy({ workspaceId, streamId, key: In(keys) });
  }

  async previousUser(tx: Tx, workspaceId: string, userId: string, seq: number): Promise<Record<string, unknown> | null> {
    const row = await first(tx, PREVIOUS_USER, [workspaceId, userId, String(seq)]);
    return (row?.data as Record<string, unknown> | undefined) ?? null;
  }

  async behind(): Promise<string[]> {
    return (await run(this.dataSource, BEHIND, [])).map((r) => r.id);
  }

  /** Any workspace's stream, locked: the dispatcher's unit of work (it then works in the stream's workspace only). */
  lockById(tx: Tx, id: string): Promise<SsfStream | null> {
    return tx.getRepository(SsfStream).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  async advance(tx: Tx, workspaceId: string, id: string, position: number): Promise<void> {
    await tx.getRepository(SsfStream).update({ workspaceId, id }, { position: String(position) });
  }

  async advanceAudit(tx: Tx, workspaceId: string, id: string, position: number): Promise<void> {
    await tx.getRepository(SsfStream).update({ workspaceId, id }, { auditPosition: String(position) });
  }

  async insertSets(tx: Tx, sets: NewSet[]): Promise<SsfSet[]> {
    if (sets.length === 0) return [];
    const repo = tx.getRepository(SsfSet);
    return repo.save(sets.map((s) => repo.create(s)));
  }

  /** Drops SETs that are done with (delivered, acknowledged or failed) and older than `before`; pending ones stay. */
  async pruneSets(before: Date): Promise<void> {
    await this.dataSource
      .getRepository(SsfSet)
      .delete({ status: In(['delivered', 'acknowledged', 'failed']), createdAt: LessThan(before) });
  }

  /** Any workspace's SET by id (a push job queued before decision 0972 names one SET). */
  findSet(id: string): Promise<SsfSet | null> {
    return this.dataSource.getRepository(SsfSet).findOneBy({ id });
  }

  findStream(workspaceId: string, id: string): Promise<SsfStream | null> {
    return this.dataSource.getRepository(SsfStream).findOneBy({ workspaceId, id });
  }

  /**
   * Push: takes (or keeps) the stream's lease for `holder` and reads up to `limit` pending SETs,
   * oldest first; `mine` false when another job holds it (marked to read again), null when the
   * stream does not push.
   */
  async claimPush(workspaceId: string, streamId: string, holder: string, leaseMs: number, limit: number): Promise<PushBatch | null> {
    const rows = await run(this.dataSource, PUSH_CLAIM, [workspaceId, streamId, holder, String(leaseMs), limit]);
    if (rows.length === 0) return null;
    const sets: PendingPush[] = [];
    for (const r of rows) {
      if (r.setId !== null) sets.push({ id: r.setId, jti: r.jti!, token: r.token!, attempts: r.attempts! });
    }
    return { mine: rows[0].mine, endpointUrl: rows[0].endpointUrl, authorizationEncrypted: rows[0].authorizationEncrypted, sets };
  }

  /** Push: records the outcomes; with `release`, lets the lease go unless SETs were made meanwhile. True: read again. */
  async settlePush(workspaceId: string, streamId: string, holder: string, outcomes: PushOutcome[], release: boolean): Promise<boolean> {
    const row = await first(this.dataSource, PUSH_SETTLE, [workspaceId, streamId, holder, ...outcomeColumns(outcomes), release]);
    return row?.again ?? false;
  }

  /** Push: records the outcomes and hands the lease to job `next` until `until`, on the caller's transaction (with the job). */
  async handOverPush(tx: Tx, workspaceId: string, streamId: string, holder: string, outcomes: PushOutcome[], next: string, until: Date) {
    await run(tx, PUSH_HAND_OVER, [workspaceId, streamId, holder, ...outcomeColumns(outcomes), next, until.toISOString()]);
  }

  /** A SET was made (the caller holds the stream's row lock): true when a job holds the lease and will read it. */
  async pokePush(tx: Tx, workspaceId: string, streamId: string): Promise<boolean> {
    return (await run(tx, PUSH_POKE, [workspaceId, streamId])).length > 0;
  }

  pending(workspaceId: string, streamId: string, limit: number) {
    return run(this.dataSource, PENDING, [workspaceId, streamId, limit]);
  }

  async acknowledge(tx: Tx, workspaceId: string, streamId: string, jtis: string[]): Promise<void> {
    if (jtis.length > 0) await run(tx, ACKNOWLEDGE, [workspaceId, streamId, jtis]);
  }

  async reject(tx: Tx, workspaceId: string, streamId: string, errors: { jti: string; error: string }[]): Promise<void> {
    if (errors.length === 0) return;
    await run(tx, REJECT, [workspaceId, streamId, errors.map((e) => e.jti), errors.map((e) => e.error)]);
  }

  /** Counts of the stream's SETs by status (the console's view of a stream). */
  /**
   * What the console shows of a stream's delivery: its SETs counted by state, when one was last
   * delivered (pushed and answered 2xx, or acknowledged by a poll), and the error of the newest SET
   * still waiting after a failed attempt (a receiver that is down now), or null.
   */
  async deliverySummary(workspaceId: string, streamId: string): Promise<DeliverySummary> {
    const [rows, waiting] = await Promise.all([
      this.dataSource
        .getRepository(SsfSet)
        .createQueryBuilder('s')
        .select('s.status', 'status')
        .addSelect('count(*)::int', 'count')
        .addSelect('max(s.delivered_at)', 'last_delivered_at')
        .where('s.workspace_id = :workspaceId AND s.stream_id = :streamId', { workspaceId, streamId })
        .groupBy('s.status')
        .getRawMany<{ status: string; count: number; last_delivered_at: Date | null }>(),
      this.dataSource.getRepository(SsfSet).findOne({
        select: { lastError: true },
        where: { workspaceId, streamId, status: 'pending', lastError: Not(IsNull()) },
        order: { made: 'DESC' },
      }),
    ]);
    const delivered = rows.map((r) => r.last_delivered_at).filter((d): d is Date => d !== null);
    return {
      sets: Object.fromEntries(rows.map((r) => [r.status, r.count])),
      lastDeliveredAt: delivered.length ? new Date(Math.max(...delivered.map((d) => new Date(d).getTime()))) : null,
      lastError: waiting?.lastError ?? null,
    };
  }
}

export interface DeliverySummary {
  sets: Record<string, number>;
  lastDeliveredAt: Date | null;
  lastError: string | null;
}
