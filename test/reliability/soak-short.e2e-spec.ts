import type { Pool } from 'pg';
import { pool } from '../../bench/lib/postgres';
import { runSoak, SoakResult } from '../../bench/soak/driver';
import { prepareSoakTenant, samlIdpEnv } from '../../bench/soak/tenant';
import { AppProcess, spawnApp } from '../support/app-process';
import { databaseUrl, workerDatabaseName } from '../support/databases';

/**
 * The soak of `npm run bench:soak` (10 minutes, behind `npm run test:long`), shortened
 * for CI: the same tenant, mix and driver against a separate service process, 20 s at a
 * low steady rate. Every answer must be the one a client expects, and the process's
 * memory must not keep growing once warm.
 */
describe('soak (short): SCIM, sign-ins, SSO and audit reads at a steady rate', () => {
  let app: AppProcess;
  let db: Pool;
  let result: SoakResult;

  beforeAll(async () => {
    app = await spawnApp({ ...samlIdpEnv(), LOG_LEVEL: 'warn' });
    db = pool(databaseUrl(workerDatabaseName()));
    const tenant = await prepareSoakTenant(app.baseUrl, db, { scimUsers: 30, endUsers: 5 });
    result = await runSoak({
      baseUrl: app.baseUrl,
      tenant,
      serverPid: app.child.pid!,
      rate: 8,
      durationSec: 20,
      sampleEverySec: 4,
      warmupSec: 8,
      // Generous: a ts-node process still compiling lazily-loaded modules, on a shared machine.
      maxRssGrowthMb: 120,
    });
  }, 240_000);
  afterAll(async () => {
    await db?.end();
    await app?.stop();
  });

  it('answers every request of the mix as a client expects', () => {
    expect(result.errors).toEqual([]);
    expect(result.totals.errors).toBe(0);
    expect(result.totals.completed).toBe(result.totals.sent);
    for (const kind of Object.values(result.totals.kinds)) expect(kind.count).toBeGreaterThan(0);
  });

  it('keeps the steady rate and samples throughput, latency and RSS', () => {
    expect(result.totals.sent).toBe(160);
    expect(result.samples.length).toBeGreaterThanOrEqual(5);
    for (const s of result.samples) expect(s.rssMb).toBeGreaterThan(0);
  });

  it('keeps memory within the bound after warm-up', () => {
    expect(result.failures).toEqual([]);
    expect(result.rss.growthAfterWarmupMb).toBeLessThanOrEqual(120);
  });
});
