/**
 * `npm run bench:soak [-- --minutes=10 --rate=40]`: the real service (`node dist/main.js`)
 * on a fresh bench database, driven at a steady rate by the soak mix (bench/soak/mix.ts)
 * for `--minutes`, sampled every 10 s. Writes bench/results/soak.json and the "Soak"
 * section of BENCHMARKS.md; exits 1 on any error or when RSS grows past the bound after
 * warm-up. test/reliability/soak-short.e2e-spec.ts runs the same driver for 20 s in CI.
 *
 * Options: --minutes=10 --rate=40 --sample=10 --warmup=<s, default min(60, a quarter)>
 *          --max-rss-growth-mb=64 --scim-users=200 --end-users=20 --no-build --no-save
 */
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { acquireRunLock } from './lib/lock';
import { databaseSuffix, pool, recreateDatabase } from './lib/postgres';
import { buildService, startService } from './lib/service';
import { runSoak } from './soak/driver';
import { SoakReport, writeSoakJson, writeSoakMarkdown } from './soak/report';
import { prepareSoakTenant, samlIdpEnv } from './soak/tenant';

const ROOT = resolve(__dirname, '..');
const log = (m: string) => console.log(`[soak ${new Date().toISOString().slice(11, 19)}] ${m}`);
const args = process.argv.slice(2);
const num = (name: string, dflt: number) => {
  const raw = args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const value = raw === undefined ? dflt : Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
};

async function main(): Promise<number> {
  const durationSec = Math.round(num('minutes', 10) * 60);
  const opts = {
    rate: num('rate', 40),
    durationSec,
    sampleEverySec: num('sample', 10),
    warmupSec: num('warmup', Math.min(60, Math.round(durationSec / 4))),
    maxRssGrowthMb: num('max-rss-growth-mb', 64),
  };
  const release = await acquireRunLock(log);
  const startedAt = new Date().toISOString();
  if (!args.includes('--no-build')) {
    log('building the service (nest build)');
    await buildService(ROOT);
  }
  const databaseUrl = await recreateDatabase(`identity_bench_${databaseSuffix(ROOT)}_soak`);
  log('starting node dist/main.js on a fresh database');
  const service = await startService(
    ROOT,
    databaseUrl,
    {
      ...samlIdpEnv(),
      RATE_LIMIT_AUTH_PER_MINUTE: '1000000',
      // Throughput runs drive one workspace flat out: a budget that never binds, still spent per request.
      TENANT_RATE_PER_SECOND: '1000000',
      TENANT_MAX_IN_FLIGHT: '0',
      RATE_LIMIT_SAML_SSO_PER_MINUTE: '1000000',
      RATE_LIMIT_ACCOUNT_PER_MINUTE: '1000000',
    },
    false,
  );
  const db = pool(databaseUrl);
  try {
    log('preparing the tenant (developer, workspace, OAuth client, SCIM token and users, end users, SAML SP, browser session)');
    const tenant = await prepareSoakTenant(service.baseUrl, db, { scimUsers: num('scim-users', 200), endUsers: num('end-users', 20) });
    log(`driving ${opts.rate} req/s for ${durationSec} s (samples every ${opts.sampleEverySec} s, warm-up ${opts.warmupSec} s)`);
    const result = await runSoak({ ...opts, baseUrl: service.baseUrl, tenant, serverPid: service.server.pid, log });
    const report: SoakReport = {
      ...result,
      startedAt,
      finishedAt: new Date().toISOString(),
      command: ['npm run bench:soak', ...(args.length ? ['--', ...args] : [])].join(' '),
      machine: {
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
        node: process.versions.node,
        loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
      },
    };
    if (!args.includes('--no-save')) {
      writeSoakJson(join(ROOT, 'bench/results/soak.json'), report);
      writeSoakMarkdown(join(ROOT, 'BENCHMARKS.md'), report);
      log('wrote bench/results/soak.json and the Soak section of BENCHMARKS.md');
    }
    log(`totals: ${result.totals.sent} sent, ${result.totals.completed} as expected, ${result.totals.errors} errors`);
    log(
      `RSS: first ${result.rss.firstMb} MB, after warm-up ${result.rss.afterWarmupMb} MB, last ${result.rss.lastMb} MB, max ${result.rss.maxMb} MB, slope ${result.rss.slopeMbPerMin} MB/min`,
    );
    for (const e of result.errors.slice(0, 10)) log(`error: ${JSON.stringify(e)}`);
    if (result.failures.length > 0) {
      console.error(`soak FAILED: ${result.failures.join('; ')} (service log: ${service.server.logFile})`);
      return 1;
    }
    log('no errors; memory within the bound');
    return 0;
  } finally {
    await db.end();
    await service.server.stop();
    release();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  },
);
