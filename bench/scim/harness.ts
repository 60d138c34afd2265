/**
 * Minimal process/load helpers for the standalone SCIM benchmark (bench/scim.ts),
 * following the method of the ops harness: child `node` servers on loopback ports,
 * autocannon with per-response hrtime latencies, the machine-wide run lock.
 */
import autocannon from 'autocannon';
import { ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { dirname } from 'node:path';
import { treeCpuSeconds } from '../lib/proc';

const children = new Set<ChildProcess>();
process.on('exit', () => children.forEach((c) => c.kill('SIGKILL')));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const a = srv.address();
      srv.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

export function run(command: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`))));
  });
}

/** Starts `node <args>` with its output in logFile and waits until readyUrl answers 2xx. */
export async function startServer(args: string[], env: Record<string, string>, cwd: string, readyUrl: string, logFile: string) {
  mkdirSync(dirname(logFile), { recursive: true });
  const fd = openSync(logFile, 'w');
  const child = spawn(process.execPath, args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  children.add(child);
  let exited = false;
  child.on('exit', () => {
    exited = true;
    children.delete(child);
  });
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (exited) throw new Error(`server exited before it was ready; see ${logFile}`);
    if (Date.now() > deadline) throw new Error(`server not ready at ${readyUrl}; see ${logFile}`);
    try {
      const res = await fetch(readyUrl);
      await res.arrayBuffer();
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  return {
    /** User + system CPU seconds the server (primary and workers) has used so far (Linux /proc). */
    cpuSeconds: () => treeCpuSeconds(child.pid!),
    /** The process the harness started (the cluster primary when there are workers). */
    pid: () => child.pid!,
    stop: async () => {
      if (exited) return;
      const done = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await done;
      clearTimeout(killer);
    },
  };
}

export interface BenchRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: autocannon.Request) => autocannon.Request;
}

export interface Measurement {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** Server CPU per request: robust to other load on a shared machine, unlike throughput. */
  cpuMsPerRequest: number;
  totalRequests: number;
  non2xx: number;
  errors: number;
}

export interface Side {
  baseUrl: string;
  requests: BenchRequest[];
  cpuSeconds: () => number;
}

export interface Window {
  ok: number;
  non2xx: number;
  errors: number;
  durationSec: number;
  cpuSec: number;
  latencies: number[];
}

/** Sends the first requests once each and throws unless they answer 2xx. */
export async function probe(side: Side): Promise<void> {
  for (const r of side.requests.slice(0, 3)) {
    if (r.setupRequest) continue;
    const res = await fetch(side.baseUrl + r.path, { method: r.method ?? 'GET', headers: r.headers, body: r.body });
    if (!res.ok) throw new Error(`probe ${r.path} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  }
}

/** One measured window (after an optional warm-up), with the server's CPU time over it. */
export async function window(side: Side, connections: number, durationSec: number, warmupSec = 0): Promise<Window> {
  if (warmupSec > 0) await fire(side.baseUrl, side.requests, connections, warmupSec);
  const cpu0 = side.cpuSeconds();
  const w = await fire(side.baseUrl, side.requests, connections, durationSec);
  return { ...w, cpuSec: side.cpuSeconds() - cpu0 };
}

/**
 * Two sides measured in alternating windows, in ABBA order (a, b, b, a, …), so a drift of the
 * machine's load hits both alike; each side's windows, to pool with summarize.
 */
export async function alternating(
  a: Side,
  b: Side,
  opts: { rounds: number; connections: number; durationSec: number },
): Promise<[Window[], Window[]]> {
  const windows: [Window[], Window[]] = [[], []];
  for (let r = 0; r < opts.rounds; r++) {
    const order = r % 2 === 0 ? [0, 1] : [1, 0];
    for (const i of order) windows[i].push(await window(i === 0 ? a : b, opts.connections, opts.durationSec));
  }
  return windows;
}

/** Pools several windows of one side into one measurement. */
export function summarize(windows: Window[]): Measurement {
  const ok = windows.reduce((a, w) => a + w.ok, 0);
  const non2xx = windows.reduce((a, w) => a + w.non2xx, 0);
  const sec = windows.reduce((a, w) => a + w.durationSec, 0);
  const cpu = windows.reduce((a, w) => a + w.cpuSec, 0);
  const sorted = Float64Array.from(windows.flatMap((w) => w.latencies)).sort();
  return {
    requestsPerSec: Math.round((ok / sec) * 10) / 10,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    cpuMsPerRequest: Math.round(((cpu * 1000) / Math.max(1, ok + non2xx)) * 1000) / 1000,
    totalRequests: ok + non2xx,
    non2xx,
    errors: windows.reduce((a, w) => a + w.errors, 0),
  };
}

async function fire(baseUrl: string, requests: BenchRequest[], connections: number, durationSec: number): Promise<Omit<Window, 'cpuSec'>> {
  const latencies: number[] = [];
  let non2xx = 0;
  const started = process.hrtime.bigint();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: baseUrl,
        connections,
        duration: durationSec,
        requests: requests.map((r) => ({
          method: (r.method ?? 'GET') as autocannon.Request['method'],
          path: r.path,
          ...(r.headers ? { headers: r.headers } : {}),
          ...(r.body !== undefined ? { body: r.body } : {}),
          // autocannon calls setupRequest whenever the key exists, even when undefined.
          ...(r.setupRequest ? { setupRequest: r.setupRequest } : {}),
        })),
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    instance.on('response', (_c: unknown, status: number, _b: number, ms: number) => {
      if (status >= 200 && status < 300) latencies.push(ms);
      else non2xx++;
    });
  });
  return { ok: latencies.length, non2xx, errors: result.errors, durationSec: Number(process.hrtime.bigint() - started) / 1e9, latencies };
}

export function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return Math.round(sorted[rank] * 100) / 100;
}

/** One bench run per machine at a time (same lock file as the ops harness). */
export async function acquireLock(log: (m: string) => void): Promise<void> {
  const lock = process.env.BENCH_LOCK_FILE ?? '/tmp/identity-bench.lock';
  let announced = false;
  for (;;) {
    try {
      const fd = openSync(lock, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      process.on('exit', () => {
        try {
          if (readFileSync(lock, 'utf8') === String(process.pid)) unlinkSync(lock);
        } catch {
          // gone
        }
      });
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = Number(readFileSync(lock, 'utf8').trim() || 0);
    let alive = false;
    try {
      if (holder) {
        process.kill(holder, 0);
        alive = true;
      }
    } catch (e) {
      alive = (e as NodeJS.ErrnoException).code === 'EPERM';
    }
    if (!alive) {
      try {
        unlinkSync(lock);
      } catch {
        // raced
      }
      continue;
    }
    if (!announced) log(`waiting for another bench run (pid ${holder}) holding ${lock}`);
    announced = true;
    await sleep(3000);
  }
}

/** One line of a measurement, for the run's log. */
export function formatMeasurement(m: Measurement): string {
  return `${m.requestsPerSec} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms, ${m.cpuMsPerRequest} ms CPU/req, non-2xx ${m.non2xx}`;
}

/** When, how and on what a report was measured. */
export interface RunFacts {
  ranAt: string;
  command: string;
  machine: { cpus: number; model?: string; loadAverage: number[] };
}

export function runFacts(script: string): RunFacts {
  return {
    ranAt: new Date().toISOString(),
    command: `npx ts-node ${script} ${process.argv.slice(2).join(' ')}`.trim(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model, loadAverage: loadavg().map((l) => Math.round(l * 100) / 100) },
  };
}

/** A numeric `--name=value` option of the command line. */
export const numberArg = (name: string, dflt: number): number =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt);

/** The window options every alternating benchmark takes: --duration, --warmup, --connections, --rounds. */
export function windowOptions() {
  return {
    durationSec: numberArg('duration', 5),
    warmupSec: numberArg('warmup', 3),
    connections: numberArg('connections', 10),
    rounds: numberArg('rounds', 4),
  };
}
