/** What one take from a bucket answered: whether the request may go, and what the headers say. */
export interface BucketAnswer {
  allowed: boolean;
  /** Whole tokens left after this take. */
  remaining: number;
  /** Seconds until a refused request may be retried (0 when allowed). */
  retryAfterSeconds: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
}

export interface BucketLimit {
  /** Tokens added per second (the sustained rate). */
  ratePerSecond: number;
  /** Bucket size: how many requests may arrive at once after a quiet spell. */
  burst: number;
}

/** The arithmetic shared by the in-memory bucket and the Redis script (kept in step by a unit test). */
export function refill(tokens: number, elapsedMs: number, limit: BucketLimit): number {
  return Math.min(limit.burst, tokens + (Math.max(0, elapsedMs) * limit.ratePerSecond) / 1000);
}

export function answer(tokensBefore: number, limit: BucketLimit): { tokens: number; answer: BucketAnswer } {
  const allowed = tokensBefore >= 1;
  const tokens = allowed ? tokensBefore - 1 : tokensBefore;
  const retryAfterSeconds = allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / limit.ratePerSecond));
  const resetSeconds = Math.ceil((limit.burst - tokens) / limit.ratePerSecond);
  return { tokens, answer: { allowed, remaining: Math.floor(tokens), retryAfterSeconds, resetSeconds } };
}

/**
 * Token buckets in process memory: exact for one instance, and the fallback when Redis is
 * unreachable. Idle buckets are dropped once full, so memory follows the active tenants.
 */
export class MemoryBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private takes = 0;

  constructor(private readonly now: () => number = Date.now) {}

  take(key: string, limit: BucketLimit): BucketAnswer {
    const now = this.now();
    const bucket = this.buckets.get(key);
    const before = bucket ? refill(bucket.tokens, now - bucket.at, limit) : limit.burst;
    const { tokens, answer: result } = answer(before, limit);
    this.buckets.set(key, { tokens, at: now });
    if (++this.takes % 1024 === 0) this.dropFull(now, limit);
    return result;
  }

  private dropFull(now: number, limit: BucketLimit): void {
    for (const [key, bucket] of this.buckets) {
      if (refill(bucket.tokens, now - bucket.at, limit) >= limit.burst) this.buckets.delete(key);
    }
  }
}

/**
 * The largest lease an instance takes from the shared bucket at once (decisions 0620, 1015): what the rate
 * refills in LEASE_MS, at most a tenth of the burst, at least one. At the default 100/s that is one token, a
 * round trip per request as before; at thousands a second one round trip can serve many requests.
 */
export const LEASE_MS = 10;

export function leaseSize(limit: BucketLimit): number {
  return Math.max(1, Math.min(Math.floor((limit.ratePerSecond * LEASE_MS) / 1000), Math.floor(limit.burst / 10)));
}

/** An instance's previous lease on a bucket, as the next one is sized by it. */
export interface LeaseUse {
  /** Tokens the lease held, the asker's included. */
  size: number;
  /** Tokens it served (it ran out when it served them all; what it did not serve was given back). */
  served: number;
  /** Whether it lapsed: LEASE_MS passed since it was asked for. */
  lapsed: boolean;
}

/**
 * The size of an instance's next lease (decisions 1015, 1030): twice the previous one when it ran out, what it served
 * when it lapsed with tokens left, one when there was none; and at least a token for the asker and each request of
 * the instance already waiting for this lease (`waiting`), which would otherwise wait for asks of their own; never
 * more than `max` (leaseSize). An instance then holds about what its own requests spend in LEASE_MS, not what the
 * whole rate refills.
 */
export function nextLeaseSize(previous: LeaseUse | undefined, max: number, waiting = 0): number {
  const wanted = !previous ? 1 : previous.served >= previous.size ? 2 * previous.size : previous.lapsed ? previous.served : previous.size;
  return Math.max(1, Math.min(max, Math.max(wanted, 1 + waiting)));
}

/**
 * The same bucket as one atomic Redis script, on Redis's clock so every instance agrees. ARGV[3] asks
 * for up to that many tokens (default one): it takes as many whole tokens as the bucket holds, up to
 * that. ARGV[4] gives back tokens a lapsed lease did not spend (default none; decision 1015), before
 * taking, never past the burst. Returns {tokens taken, tokens left×1000}; the key lives only as long
 * as it takes to refill.
 */
export const REDIS_TAKE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = burst
else
  local elapsed = now - at
  if elapsed < 0 then elapsed = 0 end
  tokens = math.min(burst, tokens + elapsed * rate / 1000)
end
local returned = math.max(0, tonumber(ARGV[4]) or 0)
tokens = math.min(burst, tokens + returned)
local wanted = tonumber(ARGV[3]) or 1
local taken = 0
if tokens >= 1 then
  taken = math.min(wanted, math.floor(tokens))
  tokens = tokens - taken
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst * 1000 / rate) + 1000)
return {taken, math.floor(tokens * 1000)}
`;
