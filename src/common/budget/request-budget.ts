import { Inject, Injectable, Logger, OnModuleDestroy, Optional } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Counter, register } from 'prom-client';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { REDIS_CLIENT, type RedisClient } from '../redis.provider';
import {
  answer,
  BucketAnswer,
  BucketLimit,
  LEASE_MS,
  leaseSize,
  MemoryBuckets,
  nextLeaseSize,
  REDIS_TAKE_SCRIPT,
  refill,
} from './token-bucket';

/** Who a budget belongs to: a workspace (SCIM) or a developer account (the developer API). */
export interface BudgetOwner {
  policy: 'workspace' | 'developer';
  id: string;
}

const refused =
  (register.getSingleMetric('request_budget_refusals_total') as Counter | undefined) ??
  new Counter({
    name: 'request_budget_refusals_total',
    help: 'Requests answered 429 because their workspace or developer was over its budget',
    labelNames: ['policy', 'reason', 'where'],
  });

/**
 * The paths where every route spends the bearer's budget (SCIM: the workspace's; the developer API: the
 * developer's), so a credential refused there may be refused before routing on any of them (decision 0612).
 * `/developer/auth/` holds the developer API's public routes (sign-up, login, logout): never there.
 */
export type BudgetArea = 'scim' | 'developer';

export function budgetArea(path: string): BudgetArea | undefined {
  // Express matches routes without regard to case: so does the area.
  const p = path.toLowerCase();
  if (p.startsWith('/scim/v2/')) return 'scim';
  if (p.startsWith('/e/v1/developer/')) return 'developer';
  if (p.startsWith('/developer/') && !p.startsWith('/developer/auth/')) return 'developer';
  return undefined;
}

/** A refusal the process can answer before routing: whose budget, what the shared bucket would say, and when to send it. */
export interface EarlyRefusal {
  owner: BudgetOwner;
  answer: BucketAnswer;
  /** Milliseconds to hold the answer (refusalHoldMs). */
  holdMs: number;
}

/** The longest a refusal is held before it is sent (decision 0990): what a rate below 4 requests a second would hold longer. */
export const MAX_REFUSAL_HOLD_MS = 250;

/** Takes up to `wanted` tokens from the shared bucket, after giving back `returned` (REDIS_TAKE_SCRIPT). */
type TakeCommand = (key: string, rate: number, burst: number, wanted: number, returned: number) => Promise<[number, number]>;

/**
 * Tokens an instance took from the shared bucket ahead of its requests: `size` of them, `served` spent and
 * `left` not (none once given back), good until `until`; `tokens` the bucket held when it was granted (for
 * the headers), `givingBack` tokens on their way back to it.
 */
interface Lease {
  size: number;
  served: number;
  left: number;
  until: number;
  tokens: number;
  givingBack: number;
}

/** How long an instance remembers the size of a lease after it lapsed, for its next one (nextLeaseSize). */
const LEASE_MEMORY_MS = 1_000;

/**
 * Per-tenant request budgets (decision 0060): a token bucket per workspace or developer,
 * shared by every instance through one Redis script, or in process memory without Redis (and
 * while Redis is unreachable: a tenant then gets its budget per instance rather than none),
 * plus a per-instance cap on each tenant's requests in flight.
 */
@Injectable()
export class RequestBudget implements OnModuleDestroy {
  private readonly logger = new Logger('RequestBudget');
  private readonly memory = new MemoryBuckets();
  private readonly inFlight = new Map<string, number>();
  /**
   * Owners the shared bucket refused, until the moment its next token can exist at the earliest (tokens only
   * accumulate with time, so no instance can be granted one sooner, unless another instance gives back what a
   * lapsed lease left: decision 1015 bounds that case): a tenant hammering past its budget is
   * refused here without a Redis round trip per request. The wait is counted from when the script was sent,
   * before Redis ran it, so this never refuses a request the shared bucket would have admitted. A request
   * that took the bucket's last token leaves the same entry (decision 0612), and for one token interval
   * after the moment only one request of this instance asks Redis for the next token (`askedAt`).
   */
  private readonly deniedUntil = new Map<string, { until: number; tokens: number; at: number; askedAt?: number }>();
  private denials = 0;
  /** When each owner's last held refusal is released (holdMs): the next one waits a token interval more. */
  private readonly releases = new Map<string, number>();
  /**
   * Bearer credentials (SHA-256 of the Authorization header, with the area it was refused in) the shared
   * bucket refused, and whose budget they spend: while that owner's refusal is remembered, a request with the
   * same header in the same area is refused before routing, without authentication (decision 0612).
   */
  private readonly refusedCredentials = new Map<string, BudgetOwner>();
  /**
   * Tokens this instance took from the shared bucket ahead of its requests (decisions 0620, 1015), per bucket,
   * each lease good for LEASE_MS after it was asked for and sized by what the previous one served: every
   * admitted request still spent a token of the shared bucket, so budgets hold across instances, and what a
   * lease has left when it lapses goes back to the bucket (with the next ask, or `giveBackLapsed` on a timer),
   * where any instance can take it. A lapsed lease stays LEASE_MEMORY_MS for its size. `asking`: the lease
   * being asked for, which concurrent requests wait on.
   */
  private readonly leases = new Map<string, Lease>();
  private readonly asking = new Map<string, Promise<unknown>>();
  /** Requests of this instance waiting for the lease being asked for, per bucket: the next ask takes a token for each. */
  private readonly waiting = new Map<string, number>();
  private sweep?: NodeJS.Timeout;
  /** Calls that give leftovers back in their own right (not with an ask), until Redis answers them. */
  private readonly returning = new Set<Promise<void>>();
  private readonly take?: TakeCommand;
  readonly limit: BucketLimit;
  private readonly leaseSize: number;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(REDIS_CLIENT) redis?: RedisClient,
  ) {
    this.limit = { ratePerSecond: config.TENANT_RATE_PER_SECOND, burst: config.TENANT_BURST || 2 * config.TENANT_RATE_PER_SECOND };
    this.leaseSize = leaseSize(this.limit);
    if (redis) {
      redis.defineCommand('budgetTake', { numberOfKeys: 1, lua: REDIS_TAKE_SCRIPT });
      const command = (redis as unknown as { budgetTake: TakeCommand }).budgetTake.bind(redis);
      this.take = command;
    }
  }

  /** Whether requests spend tokens (TENANT_RATE_PER_SECOND=0 turns the rate off). */
  get rateLimited(): boolean {
    return this.limit.ratePerSecond > 0;
  }

  /** Whether any bearer credential is remembered as refused (the check before routing has anything to do). */
  get refusing(): boolean {
    return this.refusedCredentials.size > 0;
  }

  /** Whether the budget guard has anything to do. */
  get active(): boolean {
    return this.rateLimited || this.capsInFlight;
  }

  /** Whether a tenant's requests in flight are capped (TENANT_MAX_IN_FLIGHT=0 lifts the cap). */
  get capsInFlight(): boolean {
    return this.config.TENANT_MAX_IN_FLIGHT > 0;
  }

  /**
   * Tokens of the owner's budget this instance holds: leased and not spent, or on their way back to the shared
   * bucket. Other instances can be granted them once this is zero.
   */
  heldTokens(owner: BudgetOwner): number {
    const lease = this.leases.get(bucketKey(owner));
    return lease ? lease.left + lease.givingBack : 0;
  }

  /** Gives back what this instance's leases hold, so that another instance can spend it, before Redis is closed. */
  async onModuleDestroy(): Promise<void> {
    clearTimeout(this.sweep);
    this.sweep = undefined;
    for (const [key, lease] of this.leases) if (lease.left >= 1) void this.giveBack(key, lease);
    await Promise.all(this.returning);
  }

  /** Takes one token from the owner's bucket. */
  async spend(owner: BudgetOwner): Promise<BucketAnswer> {
    const result = await this.takeShared(bucketKey(owner));
    if (!result.allowed) refused.inc({ policy: owner.policy, reason: 'rate', where: 'after_auth' });
    return result;
  }

  /**
   * Remembers that this bearer credential, in this area, spends `owner`'s budget, after the shared bucket
   * refused it: until that refusal lapses, `refusedBeforeRouting` answers for it.
   */
  rememberRefusedCredential(authorization: string | undefined, area: BudgetArea | undefined, owner: BudgetOwner): void {
    if (!authorization || !area || !this.take) return;
    this.refusedCredentials.set(credentialKey(area, authorization), owner);
  }

  /**
   * The refusal a request gets before routing: its bearer credential was refused in this area, and its
   * owner's bucket cannot hold a token yet (the same answer the budget guard would give, counted the same way).
   * Only with Redis: without it the in-memory bucket is exact and cheap, and the budget guard answers.
   */
  refusedBeforeRouting(authorization: string | undefined, area: BudgetArea): EarlyRefusal | undefined {
    if (!authorization) return undefined;
    const credential = credentialKey(area, authorization);
    const owner = this.refusedCredentials.get(credential);
    if (!owner) return undefined;
    const key = bucketKey(owner);
    const now = Date.now();
    // Tokens this instance still holds are served through the guard, whatever the bucket holds.
    const lease = this.leases.get(key);
    if (lease && lease.left >= 1 && now < lease.until) return undefined;
    const answer = this.stillDenied(key, now, false);
    if (!answer) return undefined;
    refused.inc({ policy: owner.policy, reason: 'rate', where: 'before_routing' });
    return { owner, answer, holdMs: this.holdMs(key, now) };
  }

  /**
   * How long a refusal of the owner's rate waits before it is sent (decision 0990): until the moment its bucket
   * can hold the next token, at most MAX_REFUSAL_HOLD_MS. A client that ignores Retry-After and asks again as
   * soon as it is answered can then ask at most once per token interval per connection, instead of as fast as
   * refusals are served, on the cores the other tenants share.
   */
  refusalHoldMs(owner: BudgetOwner): number {
    return this.holdMs(bucketKey(owner), Date.now());
  }

  /**
   * Until the remembered moment the bucket's next token can exist (once it has passed and a request of this
   * instance is asking for that token, one token interval after it: the bucket then holds fewer than two), and
   * one token interval after the owner's previous held refusal is released (decision 0992): held refusals are
   * released one per token interval, as the bucket refills, rather than all at the token's moment.
   */
  private holdMs(key: string, now: number): number {
    const denial = this.deniedUntil.get(key);
    if (!denial) return 0;
    const interval = 1000 / this.limit.ratePerSecond;
    const readyAt = now < denial.until ? denial.until : denial.until + interval;
    const release = Math.max(readyAt, (this.releases.get(key) ?? 0) + interval);
    const hold = Math.min(MAX_REFUSAL_HOLD_MS, Math.max(0, Math.ceil(release - now)));
    this.releases.set(key, now + hold);
    return hold;
  }

  /** Counts a request in flight; false (and nothing counted) when the owner is at its cap. */
  enter(owner: BudgetOwner): boolean {
    const cap = this.config.TENANT_MAX_IN_FLIGHT;
    if (cap === 0) return true;
    const key = `${owner.policy}:${owner.id}`;
    const current = this.inFlight.get(key) ?? 0;
    if (current >= cap) {
      refused.inc({ policy: owner.policy, reason: 'in_flight', where: 'after_auth' });
      return false;
    }
    this.inFlight.set(key, current + 1);
    return true;
  }

  leave(owner: BudgetOwner): void {
    const key = `${owner.policy}:${owner.id}`;
    const current = this.inFlight.get(key) ?? 0;
    if (current <= 1) this.inFlight.delete(key);
    else this.inFlight.set(key, current - 1);
  }

  private async takeShared(key: string): Promise<BucketAnswer> {
    if (!this.take) return this.memory.take(key, this.limit);
    // Requests that arrive while this instance asks for a lease wait for it (up to three asks) rather than ask again.
    for (let waited = 0; ; waited++) {
      const now = Date.now();
      const leased = this.spendLease(key, now);
      if (leased) return leased;
      const known = this.stillDenied(key, now, true);
      if (known) return known;
      const pending = this.asking.get(key);
      if (!pending || waited === 3) break;
      this.waiting.set(key, (this.waiting.get(key) ?? 0) + 1);
      await pending; // settles, never rejects
      this.stopWaiting(key);
    }
    return this.askShared(key, this.take);
  }

  private stopWaiting(key: string): void {
    const still = this.waiting.get(key)! - 1;
    if (still === 0) this.waiting.delete(key);
    else this.waiting.set(key, still);
  }

  /** One token of this instance's lease on the bucket, while the lease holds one and has not lapsed. */
  private spendLease(key: string, now: number): BucketAnswer | undefined {
    const lease = this.leases.get(key);
    if (!lease || now >= lease.until || lease.left < 1) return undefined;
    // The headers count what the bucket held when the lease was taken, plus what the lease still holds.
    const { answer: result } = answer(lease.tokens + lease.left, this.limit);
    lease.left--;
    lease.served++;
    return result;
  }

  /**
   * Asks the shared bucket for a lease of tokens (one, at low rates), giving back in the same call what the
   * previous lease left when it lapsed; this request spends the first token, and the requests waiting for it
   * the next ones (decision 1030).
   */
  private async askShared(key: string, take: TakeCommand): Promise<BucketAnswer> {
    const sentAt = Date.now();
    const previous = this.leases.get(key);
    const lapsed = previous !== undefined && sentAt >= previous.until;
    const use = previous && { size: previous.size, served: previous.served, lapsed };
    // A request asking beside an ask still in flight (it waited for three) leaves the requests waiting for that ask to it.
    const waiting = this.asking.has(key) ? 0 : this.waiting.get(key);
    const wanted = this.leaseSize > 1 ? nextLeaseSize(use, this.leaseSize, waiting) : 1;
    const returned = lapsed ? this.takeBackLeftovers(previous) : 0;
    const asked = take(key, this.limit.ratePerSecond, this.limit.burst, wanted, returned);
    if (returned > 0) {
      previous!.givingBack += returned;
      void asked.finally(() => (previous!.givingBack -= returned)).catch(noop);
    }
    if (this.leaseSize > 1) {
      const settled = asked.then(noop, noop);
      this.asking.set(key, settled);
      void settled.then(() => this.asking.get(key) === settled && this.asking.delete(key));
    }
    try {
      const [taken, milliTokens] = await asked;
      // An empty bucket is remembered whether this request took its last token or was refused.
      if (milliTokens < 1000) this.rememberDenial(key, sentAt, milliTokens);
      else this.deniedUntil.delete(key);
      const tokens = milliTokens / 1000;
      if (taken >= 1 && this.leaseSize > 1) this.lease(key, sentAt, taken, tokens);
      // The script already took the tokens; re-derive the headers from what it left and what this instance holds.
      return answer(tokens + taken, this.limit).answer;
    } catch (err) {
      this.deniedUntil.delete(key);
      this.logger.warn(`redis budget store failed, counting in memory: ${(err as Error).message}`);
      return this.memory.take(key, this.limit);
    }
  }

  /**
   * Keeps a lease of `taken` tokens (the asker spends the first). Tokens a concurrent ask left in the previous
   * lease are carried into this one rather than dropped.
   */
  private lease(key: string, sentAt: number, taken: number, tokens: number): void {
    const until = sentAt + LEASE_MS;
    const lease = this.leases.get(key);
    if (lease) Object.assign(lease, { size: lease.left + taken, served: 1, left: lease.left + taken - 1, until, tokens });
    else this.leases.set(key, { size: taken, served: 1, left: taken - 1, until, tokens, givingBack: 0 });
    this.sweep ??= setTimeout(() => this.giveBackLapsed(), LEASE_MS).unref();
  }

  /**
   * Every LEASE_MS while this instance holds leases: what a lease lapsed at least LEASE_MS ago has left goes back
   * to the shared bucket, for an owner whose requests stopped reaching this instance. A lease lapsed since then is
   * left to the owner's next request, whose ask gives it back in the call it makes anyway (decision 1030: the
   * timer giving it back too made a second Redis call beside that ask). Leases lapsed LEASE_MEMORY_MS ago are
   * forgotten.
   */
  private giveBackLapsed(): void {
    this.sweep = undefined;
    const now = Date.now();
    for (const [key, lease] of this.leases) {
      if (now < lease.until + LEASE_MS) continue;
      if (lease.left >= 1) void this.giveBack(key, lease);
      else if (now >= lease.until + LEASE_MEMORY_MS && lease.givingBack === 0) this.leases.delete(key);
    }
    if (this.leases.size > 0) this.sweep = setTimeout(() => this.giveBackLapsed(), LEASE_MS).unref();
  }

  /** Gives a lease's leftovers back to the shared bucket in a call of their own. */
  private giveBack(key: string, lease: Lease): Promise<void> {
    const returned = this.takeBackLeftovers(lease);
    lease.givingBack += returned;
    const sent: Promise<void> = this.sendBack(key, returned).finally(() => {
      lease.givingBack -= returned;
      this.returning.delete(sent);
    });
    this.returning.add(sent);
    return sent;
  }

  private async sendBack(key: string, returned: number): Promise<void> {
    try {
      const [, milliTokens] = await this.take!(key, this.limit.ratePerSecond, this.limit.burst, 0, returned);
      // The bucket holds a token again: what this instance remembered of its refusal no longer holds.
      if (milliTokens >= 1000) this.deniedUntil.delete(key);
    } catch {
      // Redis is unreachable: the tokens are lost to the tenant, as every lease's leftovers were before decision 1015.
    }
  }

  /** Empties a lapsed lease: what it left is given back (its next lease is sized by what it served). */
  private takeBackLeftovers(lease: Lease | undefined): number {
    if (!lease) return 0;
    const left = lease.left;
    lease.left = 0;
    return left;
  }

  /**
   * The refusal the shared bucket would answer now, without asking it: while its next token cannot exist
   * yet; and for one token interval after that moment, while a request of this instance is already asking
   * for that token (the bucket then holds fewer than two tokens, and the one asking takes the first).
   * `ask`: the caller asks the bucket itself when nobody is (the budget guard, after authentication, so the
   * request that asks is sure to reach the bucket); the check before routing never does.
   */
  private stillDenied(key: string, now: number, ask: boolean): BucketAnswer | undefined {
    const denial = this.deniedUntil.get(key);
    if (!denial) return undefined;
    if (now >= denial.until) {
      if (now >= denial.until + 1000 / this.limit.ratePerSecond) {
        this.deniedUntil.delete(key);
        return undefined;
      }
      if (denial.askedAt === undefined) {
        if (ask) denial.askedAt = now;
        return undefined;
      }
    }
    const tokens = Math.min(refill(denial.tokens, now - denial.at, this.limit), 0.999);
    return answer(tokens, this.limit).answer;
  }

  private rememberDenial(key: string, sentAt: number, milliTokens: number): void {
    // The script floors to thousandths: round up so the wait is never longer than the bucket's.
    const tokens = Math.min(1, (milliTokens + 1) / 1000);
    const interval = 1000 / this.limit.ratePerSecond;
    this.deniedUntil.set(key, { until: sentAt + (1 - tokens) * interval, tokens, at: sentAt });
    if (++this.denials % 1024 === 0) {
      for (const [k, d] of this.deniedUntil) if (sentAt >= d.until + interval) this.deniedUntil.delete(k);
      for (const [k, release] of this.releases) if (sentAt >= release) this.releases.delete(k);
      for (const [k, owner] of this.refusedCredentials) if (!this.deniedUntil.has(bucketKey(owner))) this.refusedCredentials.delete(k);
    }
  }
}

function bucketKey(owner: BudgetOwner): string {
  return `budget:${owner.policy}:${owner.id}`;
}

/** The header is hashed so the process never keeps a bearer token in plain text beyond its request. */
function credentialKey(area: BudgetArea, authorization: string): string {
  return `${area}:${createHash('sha256').update(authorization).digest('base64')}`;
}

function noop(): void {}
