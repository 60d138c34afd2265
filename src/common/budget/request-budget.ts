import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { Counter, register } from 'prom-client';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { REDIS_CLIENT, type RedisClient } from '../redis.provider';
import { answer, BucketAnswer, BucketLimit, MemoryBuckets, REDIS_TAKE_SCRIPT, refill } from './token-bucket';

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
    labelNames: ['policy', 'reason'],
  });

type TakeCommand = (key: string, rate: number, burst: number) => Promise<[number, number]>;

/**
 * Per-tenant request budgets (decision 0060): a token bucket per workspace or developer,
 * shared by every instance through one Redis script, or in process memory without Redis (and
 * while Redis is unreachable: a tenant then gets its budget per instance rather than none),
 * plus a per-instance cap on each tenant's requests in flight.
 */
@Injectable()
export class RequestBudget {
  private readonly logger = new Logger('RequestBudget');
  private readonly memory = new MemoryBuckets();
  private readonly inFlight = new Map<string, number>();
  /**
   * Owners the shared bucket refused, until the moment its next token can exist at the earliest (tokens only
   * accumulate with time, so no instance can be granted one sooner): a tenant hammering past its budget is
   * refused here without a Redis round trip per request. The wait is counted from when the script was sent,
   * before Redis ran it, so this never refuses a request the shared bucket would have admitted.
   */
  private readonly deniedUntil = new Map<string, { until: number; tokens: number; at: number }>();
  private denials = 0;
  private readonly take?: TakeCommand;
  readonly limit: BucketLimit;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(REDIS_CLIENT) redis?: RedisClient,
  ) {
    this.limit = { ratePerSecond: config.TENANT_RATE_PER_SECOND, burst: config.TENANT_BURST || 2 * config.TENANT_RATE_PER_SECOND };
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

  /** Whether the interceptor has anything to do. */
  get active(): boolean {
    return this.rateLimited || this.config.TENANT_MAX_IN_FLIGHT > 0;
  }

  /** Takes one token from the owner's bucket. */
  async spend(owner: BudgetOwner): Promise<BucketAnswer> {
    const key = `budget:${owner.policy}:${owner.id}`;
    const result = await this.takeShared(key);
    if (!result.allowed) refused.inc({ policy: owner.policy, reason: 'rate' });
    return result;
  }

  /** Counts a request in flight; false (and nothing counted) when the owner is at its cap. */
  enter(owner: BudgetOwner): boolean {
    const cap = this.config.TENANT_MAX_IN_FLIGHT;
    if (cap === 0) return true;
    const key = `${owner.policy}:${owner.id}`;
    const current = this.inFlight.get(key) ?? 0;
    if (current >= cap) {
      refused.inc({ policy: owner.policy, reason: 'in_flight' });
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
    if (this.take) {
      const sentAt = Date.now();
      const known = this.stillDenied(key, sentAt);
      if (known) return known;
      try {
        const [allowed, milliTokens] = await this.take(key, this.limit.ratePerSecond, this.limit.burst);
        if (allowed !== 1) this.rememberDenial(key, sentAt, milliTokens);
        // The script already took the token; re-derive the headers from what it left.
        const tokensBefore = milliTokens / 1000 + (allowed === 1 ? 1 : 0);
        return answer(tokensBefore, this.limit).answer;
      } catch (err) {
        this.logger.warn(`redis budget store failed, counting in memory: ${(err as Error).message}`);
      }
    }
    return this.memory.take(key, this.limit);
  }

  /** The refusal the shared bucket would answer now, while its next token cannot exist yet. */
  private stillDenied(key: string, now: number): BucketAnswer | undefined {
    const denial = this.deniedUntil.get(key);
    if (!denial) return undefined;
    if (now >= denial.until) {
      this.deniedUntil.delete(key);
      return undefined;
    }
    const tokens = Math.min(refill(denial.tokens, now - denial.at, this.limit), 0.999);
    return answer(tokens, this.limit).answer;
  }

  private rememberDenial(key: string, sentAt: number, milliTokens: number): void {
    // The script floors to thousandths: round up so the wait is never longer than the bucket's.
    const tokens = Math.min(1, (milliTokens + 1) / 1000);
    this.deniedUntil.set(key, { until: sentAt + ((1 - tokens) * 1000) / this.limit.ratePerSecond, tokens, at: sentAt });
    if (++this.denials % 1024 === 0) {
      for (const [k, d] of this.deniedUntil) if (sentAt >= d.until) this.deniedUntil.delete(k);
    }
  }
}
