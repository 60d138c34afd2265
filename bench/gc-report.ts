/**
 * Each worker's garbage collection per request, from a service log written with the GC trace preload:
 *
 *   BENCH_NODE_OPTIONS="--require $PWD/bench/lib/gc-trace-preload.js" npx ts-node --transpile-only bench/ab.ts ...
 *   npx ts-node --transpile-only bench/gc-report.ts <build>/bench/results/logs/service.log [--tail=0.6]
 *
 * For every process that served requests: over the last `tail` share of its requests (after warm-up),
 * the bytes promoted and surviving per request and the scavenge and mark-compact pauses per request.
 * A worker that promotes several times what its sibling does is the state decision 0186 removed.
 */
import { readFileSync } from 'node:fs';

interface Collection {
  /** Milliseconds since the process started, as V8 prints it. */
  atMs: number;
  kind: string;
  pauseMs: number;
  promoted: number;
  survived: number;
}

const COUNT_LINE = /^gc-report pid=(\d+) t=(\d+) requests=(\d+)$/;
const GC_LINE = /^\[(\d+):\S+\]\s+(\d+) ms: pause=([\d.]+) .*?\bgc=(\w+)\b/;

function parse(log: string) {
  const counts = new Map<string, { wallMs: number; requests: number }[]>();
  const collections = new Map<string, Collection[]>();
  for (const line of log.split('\n')) {
    const count = COUNT_LINE.exec(line);
    if (count) {
      const list = counts.get(count[1]) ?? counts.set(count[1], []).get(count[1])!;
      list.push({ wallMs: Number(count[2]), requests: Number(count[3]) });
      continue;
    }
    const gc = GC_LINE.exec(line);
    if (!gc) continue;
    const value = (name: string) => Number(new RegExp(`\\b${name}=(\\d+)`).exec(line)?.[1] ?? 0);
    const list = collections.get(gc[1]) ?? collections.set(gc[1], []).get(gc[1])!;
    list.push({
      atMs: Number(gc[2]),
      kind: gc[4],
      pauseMs: Number(gc[3]),
      promoted: value('promoted'),
      survived: value('new_space_survived'),
    });
  }
  return { counts, collections };
}

function report(path: string, tail: number): void {
  const { counts, collections } = parse(readFileSync(path, 'utf8'));
  for (const [pid, samples] of counts) {
    const total = samples[samples.length - 1].requests;
    const gcs = collections.get(pid) ?? [];
    if (total === 0 || gcs.length === 0) continue;
    // The window: from the second the count passed (1 - tail) of the total to the last request, on V8's clock.
    const from = samples.find((s) => s.requests >= total * (1 - tail))!;
    const to = samples.find((s) => s.requests >= total)!;
    const window = gcs.filter((c) => c.atMs >= gcs[gcs.length - 1].atMs - (to.wallMs - from.wallMs));
    const requests = total - from.requests;
    const sum = (pick: (c: Collection) => number, kind?: string) =>
      window.filter((c) => !kind || c.kind === kind).reduce((acc, c) => acc + pick(c), 0) / requests;
    console.log(
      `pid ${pid}: ${requests} requests; promoted ${(sum((c) => c.promoted) / 1024).toFixed(1)} KB/req, ` +
        `survived ${(sum((c) => c.survived) / 1024).toFixed(1)} KB/req; scavenge ${sum((c) => c.pauseMs, 's').toFixed(3)} ms/req, ` +
        `mark-compact ${sum((c) => c.pauseMs, 'mc').toFixed(3)} ms/req`,
    );
  }
}

const args = process.argv.slice(2);
const tail = Number(args.find((a) => a.startsWith('--tail='))?.split('=')[1] ?? 0.6);
const logs = args.filter((a) => !a.startsWith('--'));
if (logs.length === 0) throw new Error('usage: bench/gc-report.ts <service.log> [...] [--tail=0.6]');
for (const path of logs) {
  console.log(path);
  report(path, tail);
}
