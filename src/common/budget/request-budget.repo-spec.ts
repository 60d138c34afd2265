import type { AppConfig } from '../../config/config';
import { MAX_REFUSAL_HOLD_MS, RequestBudget } from './request-budget';
import { redisClientsForSuite } from '../../../test/support/redis-keys';

/** The shared budget with leases (decision 0620), against the live Redis: two instances, one bucket. */
describe('RequestBudget on Redis, leasing tokens in batches', () => {
  const client = redisClientsForSuite();
  const instance = (rate: number, burst: number) => {
    const config = { TENANT_RATE_PER_SECOND: rate, TENANT_BURST: burst, TENANT_MAX_IN_FLIGHT: 0 } as AppConfig;
    return new RequestBudget(config, client());
  };

  it('two instances taking leases of 20 tokens admit no more than the one bucket holds and refills', async () => {
    const [rate, burst] = [2_000, 200];
    const [a, b] = [instance(rate, burst), instance(rate, burst)];
    const owner = { policy: 'workspace' as const, id: 'leased' };
    const started = performance.now();
    // Bursts of concurrent requests on both instances, as two busy workers see them.
    let admitted = 0;
    let refused = 0;
    const firstWaveAdmitted = { a: 0, b: 0 };
    for (let wave = 0; wave < 20; wave++) {
      const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? a : b).spend(owner)));
      admitted += answers.filter((x) => x.allowed).length;
      refused += answers.filter((x) => !x.allowed).length;
      if (wave === 0) {
        firstWaveAdmitted.a = answers.filter((x, i) => i % 2 === 0 && x.allowed).length;
        firstWaveAdmitted.b = answers.filter((x, i) => i % 2 === 1 && x.allowed).length;
      }
    }
    const elapsedSeconds = (performance.now() - started) / 1000;
    // Every admitted request spent a token of the shared bucket: the burst plus what the rate refilled meanwhile.
    expect(admitted).toBeLessThanOrEqual(burst + Math.ceil(rate * elapsedSeconds));
    // A full bucket serves both instances: a lease is a tenth of the burst at most, so neither can take it all.
    // (How many more are admitted depends on how fast a loaded machine spends a lease before it lapses.)
    expect(firstWaveAdmitted.a).toBeGreaterThan(0);
    expect(firstWaveAdmitted.b).toBeGreaterThan(0);
    expect(admitted + refused).toBe(1_200);
  });

  it('a refusal carries Retry-After and the bucket serves again once it refills', async () => {
    const [rate, burst] = [500, 50];
    const budget = instance(rate, burst);
    const owner = { policy: 'workspace' as const, id: 'refilled' };
    let last = await budget.spend(owner);
    for (let i = 0; i < 2_000 && last.allowed; i++) last = await budget.spend(owner);
    expect(last).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await budget.spend(owner)).allowed).toBe(true);
  });

  it('holds a refusal until the bucket can hold its next token, at most MAX_REFUSAL_HOLD_MS (decision 0990)', async () => {
    const drain = async (budget: RequestBudget, owner: { policy: 'workspace'; id: string }) => {
      let last = await budget.spend(owner);
      for (let i = 0; i < 100 && last.allowed; i++) last = await budget.spend(owner);
      expect(last.allowed).toBe(false);
    };
    // 100 a second: the next token exists at most one token interval (10 ms) after the refusal.
    const fast = instance(100, 2);
    const busy = { policy: 'workspace' as const, id: 'held-fast' };
    expect(fast.refusalHoldMs(busy)).toBe(0);
    await drain(fast, busy);
    const first = fast.refusalHoldMs(busy);
    expect(first).toBeGreaterThanOrEqual(0);
    expect(first).toBeLessThanOrEqual(2 * 10);
    // Refusals held at once are released one token interval apart (decision 0992), up to the cap.
    // (Each release moment is read between the clock before and after its call, whatever the machine's pauses.)
    const releases = Array.from({ length: 4 }, () => {
      const before = Date.now();
      const hold = fast.refusalHoldMs(busy);
      return { earliest: before + hold - 1, latest: Date.now() + hold };
    });
    for (let i = 1; i < releases.length; i++) expect(releases[i].latest).toBeGreaterThanOrEqual(releases[i - 1].earliest + 10);
    const many = Array.from({ length: 40 }, () => fast.refusalHoldMs(busy));
    expect(Math.max(...many)).toBe(MAX_REFUSAL_HOLD_MS);
    // 1 a second: the next token is up to a second away, and the hold stops at the cap.
    const slow = instance(1, 1);
    const quiet = { policy: 'workspace' as const, id: 'held-slow' };
    await drain(slow, quiet);
    const hold = slow.refusalHoldMs(quiet);
    expect(hold).toBeGreaterThan(0);
    expect(hold).toBeLessThanOrEqual(MAX_REFUSAL_HOLD_MS);
    // Another owner's budget is not held.
    expect(slow.refusalHoldMs({ policy: 'workspace', id: 'untouched' })).toBe(0);
  });
});
