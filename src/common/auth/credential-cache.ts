import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Client } from 'pg';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { sessionDatabaseUrl } from '../../database/session-url';
import { Clock } from '../clock';
import {
  acknowledgeEviction,
  EVERY_CREDENTIAL,
  EVICTED_CHANNEL,
  listenForRevocations,
  REVOKED_CHANNEL,
  type RevocationNotice,
} from './credential-revocations.repository';
import type { Principal } from './principal';

const TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

/** A developer's role in a workspace, as WorkspaceMembership cached it (decision 0185). */
interface MembershipGrant {
  kind: 'membership';
  role: string;
}

/**
 * What an entry holds: a principal, a membership, or the view of a credential some module reads
 * with it (an application's end-user access token with its grant, decision 0961), told apart by kind.
 */
export interface CachedCredential {
  readonly kind: string;
}

interface Entry {
  value: CachedCredential;
  expiresAt: number | null;
  until: number;
  /** Revocation keys besides the hash: an OAuth access token dies with its client or secret (decision 0902). */
  tags: readonly string[];
}

/** The revocation tag of a workspace's cached memberships: notified when a member is removed. */
export const membershipTag = (workspaceId: string): string => `workspace-members:${workspaceId}`;

// The NOTIFY side lives with the channel, in credential-revocations.repository.ts; re-exported for
// the services that revoke inside their unit of work.
export {
  notifyAllCredentialsRevoked,
  notifyCredentialRevoked,
  notifyCredentialsRevoked,
  type RevocationNotice,
} from './credential-revocations.repository';

/** A revocation waiting for the listeners that must evict it (decision 0214). */
interface PendingEviction {
  key: string;
  pending: Set<string>;
  done: () => void;
}

/**
 * Short-lived cache of authenticated bearer tokens (SCIM and developer tokens, by SHA-256
 * hash) so a request costs one query, not two, and of the workspace memberships those
 * requests are checked against (`membership`), so a workspace-scoped route costs none.
 * Revocation is effective on every instance before the revoking request is answered
 * (decision 0214): the revoking transaction sends NOTIFY credential_revoked (delivered at
 * commit) and reads which listeners will hear it; every instance LISTENs, evicts and
 * acknowledges on credential_evicted; the revoker waits for those acknowledgements, at most
 * the entries' lifetime (an entry lives 5 s from the moment its load started, so after that
 * nothing read before the commit is served anywhere).
 * While the listener is not connected (embedded database, outage, reconnecting, a
 * transaction pooler without DATABASE_DIRECT_URL) the cache is off and every call reads
 * the table. Entries also lapse after 5 s and at the token's expiry. Hashes of different
 * token kinds never collide (distinct prefixes).
 */
@Injectable()
export class CredentialCache implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('CredentialCache');
  private readonly entries = new Map<string, Entry>();
  /** Tag -> hashes of the entries carrying it. */
  private readonly tagged = new Map<string, Set<string>>();
  private listener?: Client;
  private live = false;
  private stopped = false;
  private retryMs = 500;
  /** The direct connection the listener holds (DATABASE_DIRECT_URL, else DATABASE_URL when not pooled). */
  private url?: string;
  /** Bumped on every eviction: a lookup that started before one must not store its result. */
  private generation = 0;
  private readonly waiting = new Set<PendingEviction>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Embedded PGlite serves one connection: no dedicated listener there. Behind a transaction
    // pooler a LISTEN would not outlive its transaction: the listener needs DATABASE_DIRECT_URL.
    if (!this.config.DATABASE_URL) return;
    this.url = sessionDatabaseUrl(this.config);
    if (this.url) await this.listen();
    else this.logger.warn('credential cache off: no session connection for LISTEN behind the pooler (set DATABASE_DIRECT_URL)');
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    this.off();
    await this.listener?.end().catch(() => undefined);
  }

  /**
   * The principal a token (by hash) stands for: from the cache, else from `load` (the
   * token table), kept for next time unless an eviction happened while it loaded. A cached
   * principal of another kind is never served.
   */
  async resolve<P extends Principal | CachedCredential>(
    kind: P['kind'],
    hash: string,
    load: () => Promise<{ principal: P; expiresAt: Date | null; tags?: readonly string[] } | undefined>,
  ): Promise<P | undefined> {
    const cached = this.get(hash);
    if (cached?.kind === kind) return cached as P;
    const generation = this.generation;
    const startedAt = this.clock.now().getTime();
    const loaded = await load();
    if (loaded) this.set(hash, loaded.principal, loaded.expiresAt, generation, startedAt, loaded.tags ?? []);
    return loaded?.principal;
  }

  /**
   * A developer's role in a workspace: from the cache, else from `load`. Only a membership is kept
   * (a miss is asked again, so a developer just added is a member on the next call); it is
   * dropped with the tag `membershipTag(workspaceId)`, which removing a member notifies, and with
   * every other entry when a workspace is deleted.
   */
  async membership(developerId: string, workspaceId: string, load: () => Promise<string | null>): Promise<string | null> {
    const key = `membership:${developerId}:${workspaceId}`;
    const cached = this.get(key);
    if (cached?.kind === 'membership') return (cached as MembershipGrant).role;
    const generation = this.generation;
    const startedAt = this.clock.now().getTime();
    const role = await load();
    const grant: MembershipGrant | null = role ? { kind: 'membership', role } : null;
    if (grant) this.set(key, grant, null, generation, startedAt, [membershipTag(workspaceId)]);
    return role;
  }

  private get(hash: string): CachedCredential | undefined {
    if (!this.live) return undefined;
    const e = this.entries.get(hash);
    if (!e) return undefined;
    const now = this.clock.now().getTime();
    if (now >= e.until || (e.expiresAt !== null && now >= e.expiresAt)) {
      this.remove(hash);
      return undefined;
    }
    return e.value;
  }

  /**
   * Keeps what a load read. Its lifetime counts from when the load started, not from now: whatever was read
   * before a revocation committed is gone everywhere TTL_MS after that commit, which bounds evictEverywhere.
   */
  private set(
    hash: string,
    value: CachedCredential,
    expiresAt: Date | null,
    generation: number,
    loadStartedAt: number,
    tags: readonly string[],
  ): void {
    if (!this.live || generation !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.clear();
    this.remove(hash);
    this.entries.set(hash, {
      value,
      expiresAt: expiresAt ? expiresAt.getTime() : null,
      until: loadStartedAt + TTL_MS,
      tags,
    });
    for (const tag of tags) {
      let hashes = this.tagged.get(tag);
      if (!hashes) this.tagged.set(tag, (hashes = new Set()));
      hashes.add(hash);
    }
  }

  /** Drops the entry of this hash, and every entry tagged with it (a revoked OAuth client or secret). */
  evict(hashOrTag: string): void {
    this.generation++;
    this.remove(hashOrTag);
    const hashes = this.tagged.get(hashOrTag);
    if (hashes) for (const hash of [...hashes]) this.remove(hash);
    this.tagged.delete(hashOrTag);
  }

  evictAll(): void {
    this.generation++;
    this.clear();
  }

  /**
   * After the revoking transaction committed, before the request is answered: evicts here, then waits until
   * every listener that heard the revocation has evicted it too (their acknowledgements on credential_evicted),
   * or until no entry read before the commit can still be served anywhere (TTL_MS), whichever comes first.
   * Never throws: a listener that does not answer delays the revocation's answer, it does not fail it.
   */
  async evictEverywhere(notice: RevocationNotice): Promise<void> {
    if (notice.key === EVERY_CREDENTIAL) this.evictAll();
    else this.evict(notice.key);
    if (notice.listeners.length === 0) return;
    await new Promise<void>((resolve) => {
      const waiter: PendingEviction = { key: notice.key, pending: new Set(notice.listeners), done: () => finish() };
      const timer = setTimeout(() => {
        this.logger.warn(
          `${waiter.pending.size} credential cache listener(s) did not acknowledge a revocation; answered after the cache lifetime`,
        );
        finish();
      }, TTL_MS);
      const finish = () => {
        clearTimeout(timer);
        this.waiting.delete(waiter);
        resolve();
      };
      this.waiting.add(waiter);
    });
  }

  /** "<pid> <key>" from a listener on credential_evicted. */
  private acknowledged(payload: string): void {
    const space = payload.indexOf(' ');
    if (space < 0) return;
    const [pid, key] = [payload.slice(0, space), payload.slice(space + 1)];
    for (const waiter of [...this.waiting]) {
      if (waiter.key !== key) continue;
      waiter.pending.delete(pid);
      if (waiter.pending.size === 0) waiter.done();
    }
  }

  private remove(hash: string): void {
    const entry = this.entries.get(hash);
    if (!entry) return;
    this.entries.delete(hash);
    for (const tag of entry.tags) {
      const hashes = this.tagged.get(tag);
      hashes?.delete(hash);
      if (hashes?.size === 0) this.tagged.delete(tag);
    }
  }

  private clear(): void {
    this.entries.clear();
    this.tagged.clear();
  }

  private off(): void {
    this.live = false;
    this.evictAll();
  }

  private async listen(): Promise<void> {
    // Named a listener (LISTENER_NAME) only once it listens: see listenForRevocations.
    const client = new Client({ connectionString: this.url, application_name: 'credential-cache-connecting' });
    client.on('notification', (msg) => {
      if (!msg.payload) return;
      if (msg.channel === EVICTED_CHANNEL) return this.acknowledged(msg.payload);
      if (msg.channel !== REVOKED_CHANNEL) return;
      if (msg.payload === EVERY_CREDENTIAL) this.evictAll();
      else this.evict(msg.payload);
      // After the eviction, never before: the revoker answers once every listener said so.
      acknowledgeEviction(client, msg.payload).catch((err: Error) => this.logger.warn(`eviction not acknowledged: ${err.message}`));
    });
    // A dropped listener must never crash the process: turn the cache off and reconnect.
    const lost = (err?: Error) => {
      if (this.listener !== client) return;
      this.listener = undefined;
      this.off();
      client.end().catch(() => undefined);
      if (this.stopped) return;
      this.logger.warn(`listener lost (${err?.message ?? 'connection ended'}); credential cache off until it reconnects`);
      setTimeout(() => void this.listen(), this.retryMs).unref();
      this.retryMs = Math.min(this.retryMs * 2, 30_000);
    };
    client.on('error', lost);
    client.on('end', () => lost());
    this.listener = client;
    try {
      await client.connect();
      await listenForRevocations(client);
      if (this.listener !== client || this.stopped) return;
      this.generation++;
      this.clear();
      this.live = true;
      this.retryMs = 500;
    } catch (err) {
      lost(err as Error);
    }
  }
}
