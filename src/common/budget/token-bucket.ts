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
 * The same bucket as one atomic Redis script, on Redis's clock so every instance agrees. Returns
 * {allowed, tokens×1000}; the key lives only as long as it takes to refill.
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
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst * 1000 / rate) + 1000)
return {allowed, math.floor(tokens * 1000)}
`;
