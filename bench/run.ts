/**
 * `npm run bench`: measures the two baselines, then every selected scenario against the
 * real service (`node dist/main.js` on a fresh bench database), and writes
 * bench/results/*.json and BENCHMARKS.md. See bench/README.md.
 */
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { ApiClient } from './lib/api-client';
import type { Pool } from 'pg';
import { buildBaselines, RunningBaseline, startBaseline } from './lib/baselines';
import { isSelected, parseArgs, USAGE } from './lib/cli';
import { LoadOptions, measure, probe, warm } from './lib/load';
import { acquireRunLock } from './lib/lock';
import { databaseSuffix, pool, recreateDatabase, serverVersion } from './lib/postgres';
import { loadScenarios } from './lib/registry';
import { evaluate, RunReport, writeJsonResults, writeMarkdown } from './lib/report';
import { buildService, createDeveloper, createWorkspace, RunningService, startService } from './lib/service';
import type { AnyScenario, BaselineName, BenchContext, BenchDeveloper, Measurement, ScenarioResult } from './lib/types';

const ROOT = resolve(__dirname, '..');
const log = (m: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${m}`);

async function main(): Promise<number> {
  const opts = parseArgs(process.argv.slice(2));
  const all = loadScenarios(join(ROOT, 'bench/scenarios'));
  if (opts.list) {
    all.forEach((s) => console.log(`${s.name.padEnd(28)} ${s.area.padEnd(12)} vs ${s.baseline.padEnd(10)} ${s.title}`));
    return 0;
  }
  const selected = all.filter((s) => isSelected(s.name, opts.only));
  if (selected.length === 0) throw new Error(`no scenario matches --only=${opts.only.join(',')} (try --list)\nusage: ${USAGE}`);

  const release = await acquireRunLock(log);
  const startedAt = new Date().toISOString();
  const suffix = databaseSuffix(ROOT);
  const load = { durationSec: opts.durationSec, warmupSec: opts.warmupSec, connections: opts.connections };

  if (!opts.noBuild) {
    log('building the service (nest build)');
    await buildService(ROOT);
  }
  log('building the baselines');
  await buildBaselines(ROOT);

  // Baselines are measured first, then stay up (idle) so that each scenario's window can be
  // paired with a fresh window on its baseline: on a shared machine the background load
  // drifts within minutes, and a ratio is only fair between adjacent windows.
  const baselines: Partial<Record<BaselineName, Measurement>> = {};
  const running = new Map<BaselineName, RunningBaseline>();
  const results: ScenarioResult[] = [];
  const failures: string[] = [];
  let service: RunningService | undefined;
  let db: Pool | undefined;
  try {
    for (const name of [...new Set(selected.map((s) => s.baseline))].sort()) {
      log(`baseline ${name}: starting`);
      const b = await startBaseline(name, ROOT, `identity_bench_${suffix}_baseline`, opts.cpuProf);
      running.set(name, b);
      await probe(b.baseUrl, b.requests);
      baselines[name] = await measure(b.server, b.baseUrl, b.requests, load);
      log(`baseline ${name}: ${summary(baselines[name]!)}`);
    }

    const dbName = `identity_bench_${suffix}`;
    log(`service: fresh database ${dbName}, starting node dist/main.js`);
    const databaseUrl = await recreateDatabase(dbName);
    const serviceEnv = Object.assign({}, ...selected.map((s) => s.serviceEnv ?? {}));
    service = await startService(ROOT, databaseUrl, serviceEnv, opts.cpuProf);
    db = pool(databaseUrl);
    const ctx = context(service.baseUrl, databaseUrl, db);
    for (const scenario of selected) {
      try {
        results.push(await runScenario(scenario, ctx, service, running.get(scenario.baseline)!, load, opts.rounds));
      } catch (err) {
        failures.push(`${scenario.name}: ${(err as Error).message}`);
        log(`${scenario.name}: FAILED ${(err as Error).stack}`);
      }
    }
  } finally {
    await service?.server.stop();
    await db?.end();
    for (const b of running.values()) await b.server.stop();
  }

  if (opts.noSave || opts.cpuProf) {
    log(`results not saved (${opts.cpuProf ? '--cpu-prof: a profiled server is slower' : '--no-save'})`);
  } else if (results.length > 0) {
    const report: RunReport = {
      startedAt,
      finishedAt: new Date().toISOString(),
      command: ['npm run bench', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' '),
      machine: {
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
        totalMemoryMb: Math.round(totalmem() / 2 ** 20),
        node: process.versions.node,
        postgres: await serverVersion(),
        platform: `${process.platform} ${process.arch}`,
      },
      settings: { ...load, rounds: opts.rounds },
      baselines,
      scenarios: results,
    };
    writeJsonResults(join(ROOT, 'bench/results'), report);
    writeMarkdown(join(ROOT, 'BENCHMARKS.md'), report);
    log('wrote bench/results/latest.json, bench/results/<area>.json and BENCHMARKS.md');
  }
  printTable(baselines, results);
  release();
  if (failures.length > 0) {
    console.error(`\n${failures.length} scenario(s) failed:\n  ${failures.join('\n  ')}\nservice log: bench/results/logs/service.log`);
    return 1;
  }
  return 0;
}

/**
 * setup, probe, warm the service up, then two adjacent windows: the baseline (already
 * warm), immediately followed by the scenario. The ratio compares those two.
 */
async function runScenario(
  scenario: AnyScenario,
  ctx: BenchContext,
  service: RunningService,
  baseline: RunningBaseline,
  load: LoadOptions,
  rounds: number,
): Promise<ScenarioResult> {
  log(`${scenario.name}: setup`);
  const state: unknown = await scenario.setup(ctx);
  try {
    const requests = typeof scenario.requests === 'function' ? scenario.requests(state) : scenario.requests;
    await probe(service.baseUrl, requests);
    await warm(service.baseUrl, requests, load);
    const pairs: ScenarioResult[] = [];
    for (let round = 1; round <= rounds; round++) {
      log(`${scenario.name}: round ${round}/${rounds}: paired ${scenario.baseline} window, then the scenario`);
      const base = await measure(baseline.server, baseline.baseUrl, baseline.requests, { ...load, warmupSec: 0 });
      const m = await measure(service.server, service.baseUrl, requests, { ...load, warmupSec: 0 });
      pairs.push(evaluate(scenario, m, base));
      log(`${scenario.name}: paired ${scenario.baseline}: ${summary(base)}`);
      log(
        `${scenario.name}: ${summary(m)} (${Math.round((pairs[pairs.length - 1].ratios.requestsPerSec ?? 0) * 100)} % of ${scenario.baseline})`,
      );
    }
    const result = medianPair(pairs);
    if (result.misses.length) log(`${scenario.name}: MISSED (median round): ${result.misses.join('; ')}`);
    return result;
  } finally {
    await scenario.teardown?.(state);
  }
}

/**
 * With several rounds, the reported pair is the round whose throughput ratio is the
 * median (a real pair of windows, not a blend), and every round's ratio is kept.
 */
function medianPair(pairs: ScenarioResult[]): ScenarioResult {
  const sorted = [...pairs].sort((a, b) => (a.ratios.requestsPerSec ?? 0) - (b.ratios.requestsPerSec ?? 0));
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  return {
    ...median,
    roundRatios: pairs.map((p) => p.ratios.requestsPerSec),
    valid: pairs.every((p) => p.valid),
  };
}

function context(baseUrl: string, databaseUrl: string, db: import('pg').Pool): BenchContext {
  const api = new ApiClient(baseUrl);
  const memo = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    if (!memo.has(key)) memo.set(key, fn());
    return memo.get(key) as Promise<T>;
  };
  const developer = (): Promise<BenchDeveloper> => once('developer', () => createDeveloper(api));
  let workspaces = 0;
  return {
    baseUrl,
    db,
    databaseUrl,
    api,
    developer,
    once,
    log,
    workspace: async (name) => createWorkspace(api, await developer(), name ?? `bench workspace ${++workspaces}`),
  };
}

function summary(m: Measurement): string {
  return (
    `${Math.round(m.requestsPerSec)} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms, RSS ${Math.round(m.rssMb)} MB, ` +
    `CPU ${m.cpuMsPerRequest} ms/req, load ${m.loadAverage}` +
    (m.non2xx || m.errors ? `, ${m.non2xx} non-2xx, ${m.errors} errors` : '')
  );
}

function printTable(baselines: Partial<Record<BaselineName, Measurement>>, results: ScenarioResult[]): void {
  const rows = [
    ...Object.entries(baselines).map(([name, m]) => ({ name: `baseline ${name}`, ...fig(m!), ratio: '', met: '' })),
    ...results.map((r) => ({
      name: r.name,
      ...fig(r.measurement),
      ratio: `${r.ratios.requestsPerSec?.toFixed(2)} × ${r.baseline} (CPU ${r.ratios.cpuPerRequest?.toFixed(2)})`,
      met: !r.valid ? 'INVALID' : r.misses.length ? 'MISSED' : 'ok',
    })),
  ];
  console.table(rows);
}

function fig(m: Measurement) {
  return {
    'req/s': Math.round(m.requestsPerSec),
    'p50 ms': m.p50Ms,
    'p99 ms': m.p99Ms,
    'RSS MB': Math.round(m.rssMb),
    'CPU ms/req': m.cpuMsPerRequest,
  };
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
