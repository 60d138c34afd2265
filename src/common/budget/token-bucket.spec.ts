import { leaseSize, MemoryBuckets, nextLeaseSize } from './token-bucket';

describe('MemoryBuckets (token bucket kept in process memory)', () => {
  const limit = { ratePerSecond: 2, burst: 3 };

  it('lets a burst through, refuses the next with the wait until one token is back, and refills at the rate', () => {
    let now = 1_000_000;
    const buckets = new MemoryBuckets(() => now);
    expect([1, 2, 3].map(() => buckets.take('ws-a', limit).allowed)).toEqual([true, true, true]);
    const refused = buckets.take('ws-a', limit);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
    now += 500; // one token at 2/s
    expect(buckets.take('ws-a', limit)).toMatchObject({ allowed: true, remaining: 0 });
    expect(buckets.take('ws-a', limit).allowed).toBe(false);
    now += 60_000; // never more than the burst, however long the quiet spell
    expect(buckets.take('ws-a', limit)).toMatchObject({ allowed: true, remaining: 2, resetSeconds: 1 });
  });

  it('keeps one bucket per key: one tenant spending its budget leaves the other’s whole', () => {
    const buckets = new MemoryBuckets(() => 0);
    for (let i = 0; i < 3; i++) buckets.take('noisy', limit);
    expect(buckets.take('noisy', limit).allowed).toBe(false);
    expect(buckets.take('quiet', limit)).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('a clock that goes back never adds tokens', () => {
    let now = 10_000;
    const buckets = new MemoryBuckets(() => now);
    for (let i = 0; i < 3; i++) buckets.take('ws', limit);
    now -= 5_000;
    expect(buckets.take('ws', limit).allowed).toBe(false);
  });
});

describe('leaseSize (tokens an instance takes from the shared bucket at once)', () => {
  it('is one token at the default rate, so a tenant near its budget is counted request by request', () => {
    expect(leaseSize({ ratePerSecond: 100, burst: 200 })).toBe(1);
    expect(leaseSize({ ratePerSecond: 1, burst: 5 })).toBe(1);
  });

  it('grows with the rate, to what 10 ms refill and never more than a tenth of the burst', () => {
    expect(leaseSize({ ratePerSecond: 2_000, burst: 4_000 })).toBe(20);
    expect(leaseSize({ ratePerSecond: 1_000_000, burst: 2_000_000 })).toBe(10_000);
    expect(leaseSize({ ratePerSecond: 1_000_000, burst: 50 })).toBe(5);
  });
});

describe('nextLeaseSize (an instance takes about what its own requests spend while a lease lasts)', () => {
  it('starts at one token, and doubles each time a lease runs out, up to the largest lease', () => {
    expect(nextLeaseSize(undefined, 20)).toBe(1);
    expect(nextLeaseSize({ size: 1, served: 1, lapsed: false }, 20)).toBe(2);
    expect(nextLeaseSize({ size: 8, served: 8, lapsed: true }, 20)).toBe(16);
    expect(nextLeaseSize({ size: 16, served: 16, lapsed: false }, 20)).toBe(20);
  });

  it('shrinks to what a lease served when it lapsed with tokens left, never below one token', () => {
    expect(nextLeaseSize({ size: 20, served: 8, lapsed: true }, 20)).toBe(8);
    expect(nextLeaseSize({ size: 20, served: 0, lapsed: true }, 20)).toBe(1);
  });

  it('holds a token for every request of the instance already waiting for the lease, up to the largest lease', () => {
    expect(nextLeaseSize({ size: 2, served: 2, lapsed: false }, 20, 9)).toBe(10);
    expect(nextLeaseSize(undefined, 20, 4)).toBe(5);
    expect(nextLeaseSize({ size: 8, served: 8, lapsed: false }, 20, 3)).toBe(16);
    expect(nextLeaseSize({ size: 20, served: 1, lapsed: true }, 20, 6)).toBe(7);
    expect(nextLeaseSize({ size: 2, served: 2, lapsed: false }, 5, 9)).toBe(5);
  });

  it('keeps the size of a lease that still holds tokens, and is always one where the largest lease is one', () => {
    expect(nextLeaseSize({ size: 8, served: 5, lapsed: false }, 20)).toBe(8);
    expect(nextLeaseSize({ size: 1, served: 1, lapsed: false }, 1)).toBe(1);
    expect(nextLeaseSize({ size: 1, served: 1, lapsed: false }, 1, 9)).toBe(1);
  });
});
