import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { type Batch, CoalescedLoop } from '../common/coalesced-loop';
import { OnEvent } from '@nestjs/event-emitter';
import { APP_CONFIG, AppConfig } from '../config/config';
import { UnitOfWork } from '../database/unit-of-work';
import { AuditChainRepository } from '../audit/audit-chain.repository';
import { AUDIT_SEALED } from '../audit/audit-sealer';
import { DIRECTORY_EVENTS_SEALED } from '../directory-events/directory-event-sealer';
import { DirectoryEventsRepository } from '../directory-events/directory-events.repository';
import { OAuthServerInfo } from '../oauth/discovery/oauth-server-info';
import type { SsfReceiver } from './entities/ssf-receiver.entity';
import type { SsfStream } from './entities/ssf-stream.entity';
import { PUSH } from './entities/ssf-stream.entity';
import type { SsfStreamSubject } from './entities/ssf-stream-subject.entity';
import { SetSigner } from './set-signer';
import { AuditedChange, mayChangeIdentifier, Signal, signalsOf, signalsOfAudit, subjectKey } from './ssf-events';
import { SsfReceiversRepository } from './ssf-receivers.repository';
import { NewSet, SsfStreamsRepository } from './ssf-streams.repository';
import { SsfStreamsService } from './ssf-streams.service';

const BATCH = 500;
/** SETs done with are kept this long for the console's counts and for support, then dropped (decision 0523). */
const SET_RETENTION_MS = 30 * 24 * 60 * 60_000;
const PRUNE_EVERY_MS = 60 * 60_000;

/**
 * The transmitter's fan-out (decision 0521): the directory events are the outbox. Each stream
 * keeps its position in its workspace's feed; this worker reads the events after it, turns the
 * ones that mean a signal for a subject of the stream into signed SETs (and a push job), and moves
 * the position, all in one transaction with the stream locked. A crash before commit leaves the
 * position where it was, and the same events are read again: nothing is lost, nothing doubled.
 * Woken when the sealer numbers events, and every second for other instances' commits.
 */
@Injectable()
export class SsfDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('SharedSignals');
  private readonly loop = new CoalescedLoop(() => this.dispatchAll().then(() => this.pruneNow()), this.logger, 'shared signals fan-out');
  private lastPrune = 0;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly streams: SsfStreamsRepository,
    private readonly receivers: SsfReceiversRepository,
    private readonly events: DirectoryEventsRepository,
    private readonly chain: AuditChainRepository,
    private readonly signer: SetSigner,
    private readonly streamsService: SsfStreamsService,
    private readonly server: OAuthServerInfo,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.JOBS_WORKER_ENABLED) this.loop.start(1000, true);
  }

  onApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  @OnEvent(DIRECTORY_EVENTS_SEALED)
  @OnEvent(AUDIT_SEALED)
  onSealed(): void {
    if (this.config.JOBS_WORKER_ENABLED) this.loop.wake();
  }

  /** Turns every sealed event after each stream's position into SETs; answers how many were made. */
  async dispatchAll(): Promise<number> {
    return this.loop.drain(await this.streams.behind(), (id) => this.fanOut(id));
  }

  private async pruneNow(): Promise<void> {
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    await this.streams.pruneSets(new Date(Date.now() - SET_RETENTION_MS));
  }

  private fanOut(id: string): Promise<Batch> {
    return this.uow.run(async (tx) => {
      const stream = await this.streams.lockById(tx, id);
      if (!stream || stream.status === 'paused') return { made: 0, more: false };
      // Every read in the transaction's own connection: the zero-config database has a pool of one.
      const events = await this.events.pageIn(tx, stream.workspaceId, Number(stream.position), BATCH);
      const links = await this.chain.links(tx, stream.workspaceId, Number(stream.auditPosition), Number.MAX_SAFE_INTEGER, BATCH);
      if (events.length === 0 && links.length === 0) return { made: 0, more: false };
      const receiver = await this.receivers.find(tx, stream.workspaceId, stream.receiverId);
      // Disabled: events are not held (SSF 1.0 §8.1.2), the position moves on without SETs.
      const signals: Signal[] = [];
      if (stream.status === 'enabled' && receiver) {
        for (const event of events) {
          const previous = mayChangeIdentifier(event)
            ? await this.streams.previousUser(tx, event.workspaceId, event.resourceId, event.seq)
            : null;
          signals.push(...signalsOf(event, this.server.issuer, previous).filter((s) => stream.eventsRequested.includes(s.eventType)));
        }
        for (const link of links) {
          if (!link.event) continue;
          const audited = signalsOfAudit(link.event as AuditedChange, this.server.issuer);
          signals.push(...audited.filter((s) => stream.eventsRequested.includes(s.eventType)));
        }
      }
      const keys = [...new Set(signals.flatMap((s) => s.subjects.map(subjectKey)))];
      const rows = await this.streams.subjects(tx, stream.workspaceId, stream.id, keys);
      const sets: NewSet[] = [];
      for (const signal of signals) {
        const subject = subjectFor(signal, rows, receiver!);
        if (subject) sets.push(await this.setFor(stream, receiver!, signal, subject));
      }
      const saved = await this.streams.insertSets(tx, sets);
      if (stream.deliveryMethod === PUSH && saved.length > 0) await this.streamsService.enqueuePush(tx, stream);
      if (events.length > 0) await this.streams.advance(tx, stream.workspaceId, stream.id, events[events.length - 1].seq);
      if (links.length > 0) await this.streams.advanceAudit(tx, stream.workspaceId, stream.id, links[links.length - 1].seq);
      return { made: saved.length, more: events.length === BATCH || links.length === BATCH };
    });
  }

  private async setFor(stream: SsfStream, receiver: SsfReceiver, signal: Signal, subject: Record<string, string>): Promise<NewSet> {
    const { jti, token } = await this.signer.sign({
      audience: receiver.clientId,
      subject,
      eventType: signal.eventType,
      event: signal.event,
      txn: signal.txn,
    });
    return { workspaceId: stream.workspaceId, streamId: stream.id, jti, eventType: signal.eventType, token };
  }
}

/**
 * The subject a SET names, or null when the stream does not carry the person: a stream of NONE
 * carries the subjects added to it (named as the receiver added them); a stream of ALL carries
 * everyone but the subjects removed from it (decision 0522).
 */
function subjectFor(signal: Signal, rows: SsfStreamSubject[], receiver: SsfReceiver): Record<string, string> | null {
  const keys = new Set(signal.subjects.map(subjectKey));
  const mine = rows.filter((r) => keys.has(r.key));
  if (mine.some((r) => r.excluded)) return null;
  const added = mine.find((r) => !r.excluded);
  if (added) return signal.named ? { ...signal.named } : added.subject;
  return receiver.defaultSubjects === 'ALL' ? { ...signal.preferred } : null;
}
