import { schedule, SOAK_MIX, SoakKind, SoakRequest } from './mix';
import type { SoakTenant } from './tenant';
import { treeRssMb } from '../lib/proc';

export interface SoakOptions {
  baseUrl: string;
  tenant: SoakTenant;
  /** The server's pid: RSS is read from /proc/<pid>/status. */
  serverPid: number;
  /** Requests per second, steady (open loop: a slow answer does not slow the schedule). */
  rate: number;
  durationSec: number;
  sampleEverySec: number;
  /** RSS growth is judged from the first sample at or after this time. */
  warmupSec: number;
  /** Fails the soak when RSS at the end (median of the last third after warm-up) exceeds its early value by more than this. */
  maxRssGrowthMb: number;
  /** Requests answered after this long count as errors. */
  timeoutMs?: number;
  /** In-flight cap: beyond it the service is not keeping up and the request counts as an error. */
  maxInFlight?: number;
  log?(message: string): void;
}

export interface KindFigures {
  count: number;
  p50Ms: number;
  p99Ms: number;
}

export interface SoakSample {
  atSec: number;
  requestsPerSec: number;
  completed: number;
  errors: number;
  rssMb: number;
  kinds: Record<string, KindFigures>;
}

export interface SoakError {
  atSec: number;
  kind: string;
  request: { method: string; path: string; body?: string };
  response: { status: number; body: string } | { error: string };
}

export interface SoakResult {
  options: {
    rate: number;
    durationSec: number;
    sampleEverySec: number;
    warmupSec: number;
    maxRssGrowthMb: number;
    mix: Record<string, number>;
  };
  samples: SoakSample[];
  totals: { sent: number; completed: number; errors: number; kinds: Record<string, KindFigures> };
  rss: {
    firstMb: number;
    /** Median of the first third of the samples after warm-up. */
    afterWarmupMb: number;
    lastMb: number;
    maxMb: number;
    /** Least-squares slope over the samples after warm-up. */
    slopeMbPerMin: number;
    /** Median of the last third of the samples after warm-up minus `afterWarmupMb`: what the bound applies to. */
    growthAfterWarmupMb: number;
  };
  /** The first errors in full (request and response); `totals.errors` counts all. */
  errors: SoakError[];
  /** Why the soak failed; empty when it passed. */
  failures: string[];
}

const KEPT_ERRORS = 50;

/** Drives the mix at a steady rate for the duration, sampling every few seconds. */
export async function runSoak(o: SoakOptions): Promise<SoakResult> {
  const order = schedule(SOAK_MIX);
  const timeoutMs = o.timeoutMs ?? 10_000;
  const maxInFlight = o.maxInFlight ?? 256;
  const started = Date.now();
  const at = () => (Date.now() - started) / 1000;
  const counters = new Map<string, number>();
  let window = newWindow();
  const all = newWindow();
  const samples: SoakSample[] = [];
  const errors: SoakError[] = [];
  let inFlight = 0;
  let sent = 0;

  const fail = (kind: SoakKind, req: SoakRequest, response: SoakError['response']) => {
    window.errors++;
    all.errors++;
    if (errors.length < KEPT_ERRORS) errors.push({ atSec: round(at()), kind: kind.name, request: describe(req), response });
  };
  const fire = async (kind: SoakKind) => {
    const n = counters.get(kind.name) ?? 0;
    counters.set(kind.name, n + 1);
    const req = kind.build(o.tenant, n);
    if (inFlight >= maxInFlight) return fail(kind, req, { error: `not sent: ${inFlight} requests in flight (service not keeping up)` });
    inFlight++;
    const t0 = process.hrtime.bigint();
    try {
      const res = await fetch(o.baseUrl + req.path, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      const body = await res.text();
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (kind.ok(res.status, body)) {
        record(window, kind.name, ms);
        record(all, kind.name, ms);
      } else {
        fail(kind, req, { status: res.status, body: body.slice(0, 800) });
      }
    } catch (err) {
      fail(kind, req, { error: (err as Error).message });
    } finally {
      inFlight--;
    }
  };

  const periodMs = 1000 / o.rate;
  const total = Math.round(o.rate * o.durationSec);
  const pending = new Set<Promise<void>>();
  let nextSample = o.sampleEverySec;
  while (sent < total) {
    // Catch up to the clock: the schedule is absolute, so timer jitter does not lower the rate.
    const due = Math.min(total, Math.floor((Date.now() - started) / periodMs) + 1);
    for (; sent < due; sent++) {
      const p = fire(order[sent % order.length]);
      pending.add(p);
      void p.finally(() => pending.delete(p));
    }
    if (at() >= nextSample) {
      samples.push(sample(window, nextSample, o));
      o.log?.(line(samples[samples.length - 1]));
      window = newWindow();
      nextSample += o.sampleEverySec;
    }
    await sleep(Math.max(1, started + sent * periodMs - Date.now()));
  }
  await Promise.all(pending);
  if (window.completed + window.errors > 0) {
    samples.push(sample(window, round(at()), o));
    o.log?.(line(samples[samples.length - 1]));
  }
  return summarize(o, samples, all, sent, errors);
}

interface Window {
  completed: number;
  errors: number;
  latencies: Map<string, number[]>;
  startedAt: number;
}

function newWindow(): Window {
  return { completed: 0, errors: 0, latencies: new Map(), startedAt: Date.now() };
}

function record(w: Window, kind: string, ms: number): void {
  w.completed++;
  const list = w.latencies.get(kind) ?? [];
  list.push(ms);
  w.latencies.set(kind, list);
}

function figures(w: Window): Record<string, KindFigures> {
  const out: Record<string, KindFigures> = {};
  for (const k of SOAK_MIX) {
    const sorted = [...(w.latencies.get(k.name) ?? [])].sort((a, b) => a - b);
    out[k.name] = { count: sorted.length, p50Ms: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99) };
  }
  return out;
}

function sample(w: Window, atSec: number, o: SoakOptions): SoakSample {
  const seconds = (Date.now() - w.startedAt) / 1000;
  return {
    atSec,
    requestsPerSec: round(w.completed / seconds),
    completed: w.completed,
    errors: w.errors,
    rssMb: rssMb(o.serverPid),
    kinds: figures(w),
  };
}

function summarize(o: SoakOptions, samples: SoakSample[], all: Window, sent: number, errors: SoakError[]): SoakResult {
  const rss = samples.map((s) => s.rssMb);
  const afterWarmup = samples.filter((s) => s.atSec >= o.warmupSec).map((s) => s.rssMb);
  // V8 lets the heap grow between major collections (a sawtooth of tens of MB), so growth
  // compares the median of the last third of the samples after warm-up with the first third's.
  const k = Math.max(1, Math.floor(afterWarmup.length / 3));
  const base = median(afterWarmup.slice(0, k));
  const growth = afterWarmup.length ? round(median(afterWarmup.slice(-k)) - base) : 0;
  const failures: string[] = [];
  if (all.errors > 0) failures.push(`${all.errors} error(s) out of ${sent} requests`);
  if (growth > o.maxRssGrowthMb) failures.push(`RSS grew ${growth} MB after warm-up (bound ${o.maxRssGrowthMb} MB)`);
  if (afterWarmup.length < 2) {
    failures.push(`too short to judge memory: ${afterWarmup.length} sample(s) after the ${o.warmupSec} s warm-up`);
  }
  return {
    options: {
      rate: o.rate,
      durationSec: o.durationSec,
      sampleEverySec: o.sampleEverySec,
      warmupSec: o.warmupSec,
      maxRssGrowthMb: o.maxRssGrowthMb,
      mix: Object.fromEntries(SOAK_MIX.map((k) => [k.name, k.weight])),
    },
    samples,
    totals: { sent, completed: all.completed, errors: all.errors, kinds: figures(all) },
    rss: {
      firstMb: rss[0] ?? 0,
      afterWarmupMb: base,
      lastMb: rss[rss.length - 1] ?? 0,
      maxMb: Math.max(0, ...rss),
      slopeMbPerMin: slope(samples.filter((s) => s.atSec >= o.warmupSec).map((s) => [s.atSec / 60, s.rssMb])),
      growthAfterWarmupMb: growth,
    },
    errors,
    failures,
  };
}

/** Least-squares slope of y over x (MB per minute); 0 with fewer than two points. */
export function slope(points: [number, number][]): number {
  if (points.length < 2) return 0;
  const mx = points.reduce((a, [x]) => a + x, 0) / points.length;
  const my = points.reduce((a, [, y]) => a + y, 0) / points.length;
  const num = points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
  const den = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  return den === 0 ? 0 : round(num / den);
}

export function rssMb(pid: number): number {
  return round(treeRssMb(pid));
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return round(sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]);
}

/** The request as it went out, minus credentials. */
function describe(req: SoakRequest): SoakError['request'] {
  const body = req.body && /password/.test(req.body) ? req.body.replace(/"password":"[^"]*"/, '"password":"…"') : req.body;
  return { method: req.method, path: req.path.length > 300 ? `${req.path.slice(0, 300)}…` : req.path, ...(body ? { body } : {}) };
}

function line(s: SoakSample): string {
  const kinds = Object.entries(s.kinds)
    .map(([k, f]) => `${k} ${f.p50Ms}/${f.p99Ms}`)
    .join(', ');
  return `t=${s.atSec}s ${s.requestsPerSec} req/s, ${s.errors} errors, RSS ${s.rssMb} MB | p50/p99 ms: ${kinds}`;
}

const round = (n: number) => Math.round(n * 100) / 100;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
