import autocannon from 'autocannon';
import { loadavg } from 'node:os';
import type { ServerProcess } from './processes';
import type { BenchRequest, Measurement } from './types';

export interface LoadOptions {
  durationSec: number;
  warmupSec: number;
  connections: number;
}

/**
 * Warms the server up (JIT, pools, caches), then measures one window with autocannon.
 * Latencies are collected here from each response's hrtime duration rather than from
 * autocannon's histogram, which has 1 ms resolution: sub-millisecond p50s would round to 0.
 */
export async function measure(
  server: Pick<ServerProcess, 'cpuSeconds' | 'sampleRss' | 'samplePss'>,
  baseUrl: string,
  requests: BenchRequest[],
  opts: LoadOptions,
): Promise<Measurement> {
  await warm(baseUrl, requests, opts);
  const stopRss = server.sampleRss();
  const stopPss = server.samplePss();
  const cpuBefore = server.cpuSeconds();
  const window = await fire(baseUrl, requests, opts.connections, opts.durationSec);
  const cpuSec = server.cpuSeconds() - cpuBefore;
  const rssMb = stopRss();
  const pssMb = stopPss();
  const sorted = window.latencies.sort();
  return {
    requestsPerSec: window.ok / window.durationSec,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    rssMb,
    pssMb,
    cpuMsPerRequest: window.ok + window.non2xx > 0 ? Math.round((cpuSec * 1000 * 1000) / (window.ok + window.non2xx)) / 1000 : Number.NaN,
    loadAverage: Math.round(loadavg()[0] * 100) / 100,
    totalRequests: window.ok + window.non2xx,
    non2xx: window.non2xx,
    non2xxStatuses: [...window.non2xxByStatus].map(([status, count]) => `${status}×${count}`).join(' '),
    errors: window.errors,
    timeouts: window.timeouts,
    durationSec: window.durationSec,
  };
}

/** Load without measuring: JIT, connection pools and caches reach their steady state. */
export async function warm(baseUrl: string, requests: BenchRequest[], opts: LoadOptions): Promise<void> {
  if (opts.warmupSec > 0) await fire(baseUrl, requests, opts.connections, opts.warmupSec);
}

interface Window {
  ok: number;
  non2xx: number;
  non2xxByStatus: Map<number, number>;
  errors: number;
  timeouts: number;
  durationSec: number;
  latencies: Float64Array;
}

async function fire(baseUrl: string, requests: BenchRequest[], connections: number, durationSec: number): Promise<Window> {
  let latencies = new Float64Array(1 << 16);
  let ok = 0;
  let non2xx = 0;
  const non2xxByStatus = new Map<number, number>();
  const started = process.hrtime.bigint();
  const onResponse = (statusCode: number, responseTime: number) => {
    if (statusCode < 200 || statusCode >= 300) {
      non2xx++;
      non2xxByStatus.set(statusCode, (non2xxByStatus.get(statusCode) ?? 0) + 1);
      return;
    }
    if (ok === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[ok++] = responseTime;
  };
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const options: autocannon.Options = {
      url: baseUrl,
      connections,
      duration: durationSec,
      requests: requests.map((r) => {
        const { newBody, newPath, newHeaders } = r;
        const base: autocannon.Request = { method: r.method ?? 'GET', path: r.path, headers: r.headers, body: r.body };
        if (!newBody && !newPath && !newHeaders) return base;
        return {
          ...base,
          setupRequest: (req: autocannon.Request) => ({
            ...req,
            ...(newBody ? { body: newBody() } : {}),
            ...(newPath ? { path: newPath() } : {}),
            ...(newHeaders ? { headers: newHeaders() } : {}),
          }),
        };
      }),
    };
    const instance = autocannon(options, (err, res) => (err ? reject(err) : resolve(res)));
    instance.on('response', (_client, statusCode, _bytes, responseTime) => onResponse(statusCode, responseTime));
  });
  const elapsedSec = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    ok,
    non2xx,
    non2xxByStatus,
    errors: result.errors,
    timeouts: result.timeouts,
    durationSec: elapsedSec,
    latencies: latencies.subarray(0, ok),
  };
}

/** Nearest-rank percentile of an ascending array, in ms rounded to 0.01. */
export function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return Math.round(sorted[rank] * 100) / 100;
}

/**
 * Sends each request once and throws unless all answer 2xx, so a scenario never
 * benchmarks a stream of 401s or 404s by mistake.
 */
export async function probe(baseUrl: string, requests: BenchRequest[]): Promise<void> {
  for (const r of requests.slice(0, 5)) {
    const res = await fetch(baseUrl + (r.newPath?.() ?? r.path), {
      method: r.method ?? 'GET',
      headers: r.newHeaders?.() ?? r.headers,
      body: r.newBody?.() ?? r.body,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`probe ${r.method ?? 'GET'} ${r.path} answered ${res.status}: ${text.slice(0, 300)}`);
  }
}
