import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { Counter, register } from 'prom-client';
import { CoalescedLoop } from '../common/coalesced-loop';
import { APP_CONFIG, AppConfig } from '../config/config';
import { Tx, UnitOfWork } from '../database/unit-of-work';
import { AuditChainRepository, ChainHead, NewLink, UnsealedKey } from './audit-chain.repository';
import { checkpointMessage, GENESIS_HASH, linkHash } from './chain/chain';
import { AuditSigningKeys } from './chain/signing-keys';

/** Emitted (in process) after a sealing pass committed links: the workspaces whose chain moved. */
export const AUDIT_SEALED = 'audit.chain.sealed';

const BATCH = 1000;
/** How often the sealer summarizes the audit log's new BRIN ranges (see summarizeNewRanges). */
const SUMMARIZE_EVERY_MS = 60_000;

const sealed =
  (register.getSingleMetric('audit_events_sealed_total') as Counter | undefined) ??
  new Counter({ name: 'audit_events_sealed_total', help: 'Audit events bound into their workspace hash chain' });

/**
 * The sealer (decision 0710): every AUDIT_SEAL_INTERVAL_MS it takes the audit events that have
 * no link yet, gives each the next position in its workspace's chain and its hash, and signs
 * the new heads as checkpoints (at most every AUDIT_CHECKPOINT_INTERVAL_MS per workspace). It
 * runs after the events' transactions committed, so the audit write path does not change; one
 * sealer at a time across instances (a transaction-scoped advisory lock).
 */
@Injectable()
export class AuditSealer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AuditSealer');
  /** The timer's passes, one at a time (a pass that runs long is followed at once by the next). */
  private readonly loop = new CoalescedLoop(() => this.sealAll(), this.logger, 'sealing');
  private lastCatchUp = 0;
  /** created_at from which unsealed rows may still appear (null: anywhere; the next pass sweeps). */
  private horizon: string | null = null;
  private lastSweep = 0;
  private lastSummary = 0;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly chain: AuditChainRepository,
    private readonly keys: AuditSigningKeys,
    private readonly emitter: EventEmitter2,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.AUDIT_SEALER_ENABLED) return;
    this.loop.start(this.config.AUDIT_SEAL_INTERVAL_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }

  /**
   * Seals everything unsealed now (the timer's work; tests and benchmarks call it to not wait).
   * A pass looks at rows from the horizon of the previous completed pass on (the oldest open
   * transaction's start then: nothing older can still appear), and every
   * AUDIT_SEAL_SWEEP_INTERVAL_MS at the whole log (rows written with an explicit old created_at,
   * as seeding does). Within a pass, each batch continues after the previous one.
   */
  async sealAll(): Promise<number> {
    const sweep = this.horizon === null || Date.now() - this.lastSweep >= this.config.AUDIT_SEAL_SWEEP_INTERVAL_MS;
    const nextHorizon = await this.chain.oldestOpenTransaction();
    const since = sweep ? null : this.horizon;
    let after: UnsealedKey | null = null;
    let total = 0;
    for (;;) {
      if (this.loop.stopping) return total;
      const { count, last } = await this.sealBatch(since, after);
      total += count;
      if (!last) break;
      after = last;
    }
    this.horizon = nextHorizon;
    if (sweep) this.lastSweep = Date.now();
    await this.summarizeRanges();
    return total;
  }

  /** Keeps the index the next passes read summarized; a failure (e.g. not the table's owner) only costs speed. */
  private async summarizeRanges(): Promise<void> {
    if (Date.now() - this.lastSummary < SUMMARIZE_EVERY_MS) return;
    this.lastSummary = Date.now();
    await this.chain.summarizeNewRanges().catch((err: Error) => this.logger.warn(`could not summarize the audit index: ${err.message}`));
  }

  /** One batch; `last` is its last event when the batch was full (more may follow). */
  private async sealBatch(since: string | null, after: UnsealedKey | null): Promise<{ count: number; last: UnsealedKey | null }> {
    const moved = new Set<string>();
    const result = await this.uow.run(async (tx) => {
      const now = await this.chain.lockSealer(tx);
      if (now === null) return { count: 0, last: null };
      const events = await this.chain.unsealed(tx, BATCH, since, after);
      const workspaceIds = [...new Set(events.map((e) => e.workspace_id!))];
      const heads = new Map((await this.chain.heads(tx, workspaceIds)).map((h) => [h.workspaceId, h]));
      const links: NewLink[] = [];
      for (const event of events) {
        const workspaceId = event.workspace_id!;
        const head = heads.get(workspaceId);
        const seq = (head?.seq ?? 0) + 1;
        const prevHash = head?.hash ?? GENESIS_HASH;
        const hash = linkHash(prevHash, seq, now, event);
        links.push({ eventId: event.id, workspaceId, seq, prevHash, hash, sealedAt: now });
        heads.set(workspaceId, { workspaceId, seq, eventId: event.id, hash });
        moved.add(workspaceId);
      }
      if (links.length > 0) await this.chain.insertLinks(tx, links);
      await this.checkpoint(tx, now, workspaceIds, heads);
      const tail = events[events.length - 1];
      return {
        count: links.length,
        last: events.length === BATCH ? { workspaceId: tail.workspace_id!, createdAt: tail.created_at } : null,
      };
    });
    if (result.count > 0) {
      sealed.inc(result.count);
      this.emitter.emit(AUDIT_SEALED, [...moved]);
    }
    return result;
  }

  /**
   * Signs the head of each workspace sealed in this pass whose last checkpoint is older than the
   * interval; once per interval also the heads of every workspace left unsigned (a workspace that
   * went quiet right after a checkpoint).
   */
  private async checkpoint(tx: Tx, now: string, sealedNow: string[], heads: Map<string, ChainHead>): Promise<void> {
    const interval = this.config.AUDIT_CHECKPOINT_INTERVAL_MS;
    const nowMs = Date.parse(now);
    const candidates = new Map(sealedNow.map((id) => [id, heads.get(id)!]));
    if (nowMs - this.lastCatchUp >= interval) {
      this.lastCatchUp = nowMs;
      for (const head of await this.chain.unsignedHeads(tx)) if (!candidates.has(head.workspaceId)) candidates.set(head.workspaceId, head);
    }
    if (candidates.size === 0) return;
    const last = await this.chain.lastCheckpoints(tx, [...candidates.keys()]);
    for (const head of candidates.values()) {
      const previous = last.get(head.workspaceId);
      if (previous && (previous.seq >= head.seq || nowMs - Date.parse(previous.signedAt) < interval)) continue;
      const content = { workspace_id: head.workspaceId, seq: head.seq, event_id: head.eventId, hash: head.hash, signed_at: now };
      const { keyId, signature } = this.keys.sign(checkpointMessage(content));
      await this.chain.insertCheckpoint(tx, { ...content, key_id: keyId, signature });
    }
  }
}
