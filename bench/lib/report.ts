import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AnyScenario, BaselineName, Measurement, Ratios, ScenarioResult, ScenarioTargets } from './types';

export interface RunInfo {
  startedAt: string;
  finishedAt: string;
  command: string;
  machine: { cpus: number; cpuModel: string; totalMemoryMb: number; node: string; postgres: string; platform: string };
  settings: { durationSec: number; warmupSec: number; connections: number; rounds: number };
}

export interface RunReport extends RunInfo {
  baselines: Partial<Record<BaselineName, Measurement>>;
  scenarios: ScenarioResult[];
}

export const BASELINE_TITLES: Record<BaselineName, string> = {
  hello: 'bare NestJS 11 hello world (`GET /hello`)',
  'pk-select': 'bare NestJS 11 + TypeORM, one primary-key SELECT, pool 10',
  'pk-select-shared':
    "the same `pk-select` app on a server that builds requests on Express's prototypes, as the service does (decision 0012) (context)",
  'page-select': 'bare NestJS 11 + TypeORM, one 50-event keyset page of an audit-shaped table of 1,000,000 rows, pool 10 (context)',
  'bare-pk': '`node:http` + `pg`, no framework, one primary-key SELECT, pool 10, one worker per core like the service',
};

const AREA_TITLES: Record<string, string> = {
  spine: 'Spine: request pipeline and audit log (area E)',
  scim: 'SCIM (area A)',
  'scim-scale': 'SCIM at identity-provider scale (issue 14)',
  saml: 'SAML (area B)',
  'end-users': 'End users and email verification (area C)',
  anomalies: 'Anomaly detection (area D)',
  'managed-db': 'Managed databases (area F)',
};

/** Ratios are scenario / baseline for every figure (req/s: higher is better; the rest: lower). */
export function ratios(m: Measurement, base: Measurement): Ratios {
  const r = (a: number, b: number) => (b > 0 && Number.isFinite(a) ? Math.round((a / b) * 100) / 100 : null);
  return {
    requestsPerSec: r(m.requestsPerSec, base.requestsPerSec),
    p50: r(m.p50Ms, base.p50Ms),
    p99: r(m.p99Ms, base.p99Ms),
    rss: r(m.rssMb, base.rssMb),
    cpuPerRequest: r(m.cpuMsPerRequest, base.cpuMsPerRequest),
  };
}

export function evaluate(scenario: AnyScenario, m: Measurement, base: Measurement): ScenarioResult {
  const targets: ScenarioTargets = scenario.targets ?? {};
  const rat = ratios(m, base);
  const misses: string[] = [];
  if (targets.minThroughputRatio !== undefined && (rat.requestsPerSec ?? 0) < targets.minThroughputRatio) {
    misses.push(`throughput ${pct(rat.requestsPerSec)} of ${scenario.baseline} < ${pct(targets.minThroughputRatio)}`);
  }
  if (targets.maxP99Ms !== undefined && !(m.p99Ms <= targets.maxP99Ms)) {
    misses.push(`p99 ${m.p99Ms} ms > ${targets.maxP99Ms} ms`);
  }
  if (targets.maxP99Ratio !== undefined && !((rat.p99 ?? Infinity) <= targets.maxP99Ratio)) {
    misses.push(`p99 ${rat.p99 ?? 'n/a'}× ${scenario.baseline} > ${targets.maxP99Ratio}×`);
  }
  return {
    name: scenario.name,
    area: scenario.area,
    title: scenario.title,
    baseline: scenario.baseline,
    measurement: m,
    baselineMeasurement: base,
    ratios: rat,
    targets,
    misses,
    valid: m.non2xx === 0 && m.errors === 0 && m.totalRequests > 0,
  };
}

/** bench/results/latest.json (the whole run) and bench/results/<area>.json per area measured. */
export function writeJsonResults(resultsDir: string, report: RunReport): void {
  write(`${resultsDir}/latest.json`, JSON.stringify(report, null, 2) + '\n');
  for (const area of areasOf(report)) {
    write(`${resultsDir}/${area}.json`, JSON.stringify(areaReport(report, area), null, 2) + '\n');
  }
}

/**
 * Rewrites, in BENCHMARKS.md, the generated block of each area this run measured and
 * leaves every other area's block, and any prose around the blocks, as it was.
 */
export function writeMarkdown(file: string, report: RunReport): void {
  let doc = existsSync(file) ? readFileSync(file, 'utf8') : PREAMBLE;
  for (const area of areasOf(report)) {
    const block = renderArea(areaReport(report, area));
    doc = replaceBlock(doc, begin(area), end(area), block, `## ${AREA_TITLES[area] ?? area}\n\n${AREA_INTRO}\n\n`);
  }
  write(file, doc);
}

/**
 * The document with the text between the markers `begin` and `end` (both kept) replaced by
 * `block`; without the markers, the block is appended after `heading`. Every generated section of
 * BENCHMARKS.md is written this way, so prose around it survives a re-run.
 */
export function replaceBlock(doc: string, begin: string, end: string, block: string, heading = ''): string {
  const marked = `${begin}\n${block.endsWith('\n') ? block : `${block}\n`}${end}`;
  const from = doc.indexOf(begin);
  const to = doc.indexOf(end);
  if (from >= 0 && to > from) return doc.slice(0, from) + marked + doc.slice(to + end.length);
  return `${doc.trimEnd()}\n\n${heading}${marked}\n`;
}

/** Rewrites one generated section of a markdown file (created with a title when missing). */
export function writeBlock(file: string, begin: string, end: string, block: string): void {
  write(file, replaceBlock(existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n', begin, end, block));
}

export function renderArea(report: RunReport): string {
  const { machine, settings } = report;
  const lines = [
    `Measured ${report.finishedAt.slice(0, 16).replace('T', ' ')} UTC with \`${report.command}\`: ` +
      `${settings.connections} connections, ${settings.durationSec} s per measurement after ${settings.warmupSec} s of warm-up` +
      (settings.rounds > 1 ? `, ${settings.rounds} paired rounds per scenario (the median round is shown)` : '') +
      '; ' +
      `Node ${machine.node}, PostgreSQL ${machine.postgres}.`,
    '',
    `**The machine has ${machine.cpus} cores (${machine.cpuModel}) shared by the server, PostgreSQL and the load ` +
      'generator (autocannon, in the harness process), so absolute figures are low and noisy; the ratios to the ' +
      'baselines, measured in the same run on the same machine, are the figures to read.** ' +
      'RSS is the peak resident set of the server process during the measured window. ' +
      "*CPU ms/req* is the server process's user+system CPU time per request over the window: it depends much " +
      'less than req/s on what else the machine runs, so its ratio is the steadier estimate of relative cost ' +
      "(a CPU ratio of 1.25 means the server could serve 1 / 1.25 = 80 % of the baseline's throughput on " +
      "dedicated cores). *load* is the machine's 1-minute load average at the end of the window. " +
      'Ratios are scenario / baseline (req/s: higher is better; latency, RSS and CPU: lower is better). ' +
      'The baseline rows are the first windows of the run; each scenario is compared with a window on its baseline ' +
      'measured immediately before its own (*paired base*), because the background load of a shared machine drifts ' +
      'within minutes.',
    '',
    '| Scenario | req/s | paired base req/s | × base | p50 ms | × base | p99 ms | × base | RSS MB | × base | CPU ms/req | × base | load | Target | Met |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|',
  ];
  for (const [name, m] of Object.entries(report.baselines) as [BaselineName, Measurement][]) {
    lines.push(row(`baseline \`${name}\`: ${BASELINE_TITLES[name]}`, m, null, null, '', ''));
  }
  for (const s of report.scenarios) {
    lines.push(
      row(
        `\`${s.name}\`: ${s.title} (vs \`${s.baseline}\`)`,
        s.measurement,
        s.baselineMeasurement,
        s.ratios,
        targetText(s.targets),
        metText(s),
      ),
    );
  }
  return lines.join('\n') + '\n';
}

function row(label: string, m: Measurement, base: Measurement | null, r: Ratios | null, target: string, met: string): string {
  const x = (v: number | null | undefined) => (r ? (v == null ? 'n/a' : v.toFixed(2)) : '—');
  return (
    `| ${label} | ${Math.round(m.requestsPerSec)} | ${base ? Math.round(base.requestsPerSec) : '—'} | ${x(r?.requestsPerSec)} | ` +
    `${m.p50Ms.toFixed(2)} | ${x(r?.p50)} | ` +
    `${m.p99Ms.toFixed(2)} | ${x(r?.p99)} | ${Math.round(m.rssMb)} | ${x(r?.rss)} | ${m.cpuMsPerRequest.toFixed(3)} | ` +
    `${x(r?.cpuPerRequest)} | ${m.loadAverage.toFixed(1)} | ${target} | ${met} |`
  );
}

function targetText(t: ScenarioTargets): string {
  const parts: string[] = [];
  if (t.minThroughputRatio !== undefined) parts.push(`req/s ≥ ${pct(t.minThroughputRatio)}`);
  if (t.maxP99Ms !== undefined) parts.push(`p99 ≤ ${t.maxP99Ms} ms`);
  if (t.maxP99Ratio !== undefined) parts.push(`p99 ≤ ${t.maxP99Ratio}× base`);
  return parts.join(', ') || '—';
}

function metText(s: ScenarioResult): string {
  const rounds = s.roundRatios && s.roundRatios.length > 1 ? ` (rounds: ${s.roundRatios.map((r) => pct(r)).join(', ')})` : '';
  return metVerdict(s) + rounds;
}

function metVerdict(s: ScenarioResult): string {
  if (!s.valid) return `**invalid** (${s.measurement.non2xx} non-2xx, ${s.measurement.errors} errors)`;
  if (s.misses.length === 0) return Object.values(s.targets).some((v) => v !== undefined) ? 'yes' : '—';
  return `**no**: ${s.misses.join('; ')}`;
}

function pct(v: number | null): string {
  return v == null ? 'n/a' : `${Math.round(v * 100)} %`;
}

function areasOf(report: RunReport): string[] {
  return [...new Set(report.scenarios.map((s) => s.area))];
}

function areaReport(report: RunReport, area: string): RunReport {
  const scenarios = report.scenarios.filter((s) => s.area === area);
  const used = new Set(scenarios.map((s) => s.baseline));
  const baselines = Object.fromEntries(Object.entries(report.baselines).filter(([k]) => used.has(k as BaselineName)));
  return { ...report, baselines, scenarios };
}

const begin = (area: string) => `<!-- bench:${area}:begin (generated by npm run bench; edits inside are overwritten) -->`;
const end = (area: string) => `<!-- bench:${area}:end -->`;

const AREA_INTRO =
  'Command: `npm run bench` (`bench/run.ts`, autocannon; how it works and how to add a scenario: `bench/README.md`). ' +
  'The table below is regenerated by each run; baselines are measured in the same run. ' +
  'Raw figures: `bench/results/latest.json` (last run) and `bench/results/<area>.json`.';

const PREAMBLE = `# Benchmarks

Generated by \`npm run bench\` (\`bench/run.ts\`, autocannon; see \`bench/README.md\`). Each area's table is
rewritten by the run that measured it, and every figure sits beside baselines measured in that same run:
a bare NestJS 11 hello world (\`hello\`) and a bare NestJS 11 + TypeORM app answering one primary-key SELECT
through a pool of 10 (\`pk-select\`), plus, for context, the same app answering one 50-event keyset page (\`page-select\`). Raw figures: \`bench/results/latest.json\` (last run) and
\`bench/results/<area>.json\`.
`;

function write(file: string, content: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
}
