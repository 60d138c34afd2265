/**
 * Webhook delivery latency and throughput (issue 16).
 *
 *   npm run build && npx ts-node --transpile-only bench/webhooks.ts [--events=300] [--burst=2000] [--concurrency=10]
 *
 * Boots the built service (dist/main.js, NODE_ENV=production, default sealing and dispatch
 * intervals) against a fresh database and a loopback receiver, then:
 * 1. latency: `--events` workspace renames, one every 50 ms, each an audit event delivered to a
 *    subscribed endpoint; latency = receipt at the receiver − the event's created_at (p50, p99, max);
 * 2. throughput: a burst of `--burst` renames at `--concurrency` in parallel, first in a workspace
 *    with no endpoint (the in-run baseline of the write rate), then in one with an endpoint;
 *    reports the write rate of both and the delivery rate (events delivered per second, from the
 *    burst's first request to the last receipt).
 * The machine may be shared: compare the two bursts of one run, not figures across runs.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ApiClient } from './lib/api-client';
import { recreateDatabase } from './lib/postgres';
import { createDeveloper, createWorkspace, startService } from './lib/service';

const ROOT = join(__dirname, '..');
const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function main(): Promise<void> {
  const events = arg('events', 300);
  const burst = arg('burst', 2000);
  const concurrency = arg('concurrency', 10);
  const received = new Map<string, { at: number; createdAt: string }>();
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const payload = JSON.parse(body) as { data: { id: string; created_at: string } };
      if (!received.has(payload.data.id)) received.set(payload.data.id, { at: Date.now(), createdAt: payload.data.created_at });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

  const url = await recreateDatabase('identity_bench_webhooks');
  const service = await startService(ROOT, url, { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', LOG_LEVEL: 'warn' }, false);
  const api = new ApiClient(service.baseUrl);
  try {
    const dev = await createDeveloper(api);
    const rename = (wsId: string, i: number) =>
      api.request('PATCH', `/e/v1/developer/workspaces/${wsId}/`, { body: { name: `n-${i}` }, headers: dev.authHeaders });
    const subscribed = async (name: string) => {
      const ws = await createWorkspace(api, dev, name);
      await api.post('/developer/webhooks/', {
        headers: dev.authHeaders,
        body: { workspace_id: ws.id, url: receiverUrl, event_types: ['workspace_update'] },
      });
      return ws;
    };
    const waitForAll = async (count: number, timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs;
      while (received.size < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      if (received.size < count) throw new Error(`only ${received.size} of ${count} delivered after ${timeoutMs} ms`);
    };

    // 1. Latency, at a steady 20 events per second.
    const latencyWs = await subscribed('latency');
    for (let i = 0; i < events; i++) {
      await rename(latencyWs.id, i);
      await new Promise((r) => setTimeout(r, 50));
    }
    await waitForAll(events, 60_000);
    const latencies = [...received.values()].map((r) => r.at - Date.parse(r.createdAt)).sort((a, b) => a - b);

    // 2. Throughput: the write rate without an endpoint (baseline), then with one, and the delivery rate.
    const burstOf = async (wsId: string) => {
      const started = Date.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < burst) await rename(wsId, next++);
        }),
      );
      return { started, seconds: (Date.now() - started) / 1000 };
    };
    const plain = await createWorkspace(api, dev, 'no-endpoint');
    const baseline = await burstOf(plain.id);
    received.clear();
    const target = await subscribed('throughput');
    const withHook = await burstOf(target.id);
    await waitForAll(burst, 300_000);
    const lastReceipt = Math.max(...[...received.values()].map((r) => r.at));
    const deliverySeconds = (lastReceipt - withHook.started) / 1000;

    const ms = (v: number) => `${Math.round(v)} ms`;
    console.log(`| Measure | Value |\n|---|---|`);
    console.log(`| Latency event → receiver, ${events} events at 20/s: p50 | ${ms(percentile(latencies, 50))} |`);
    console.log(`| … p99 | ${ms(percentile(latencies, 99))} |`);
    console.log(`| … max | ${ms(latencies[latencies.length - 1])} |`);
    console.log(
      `| Burst of ${burst} renames, ${concurrency} in parallel, no endpoint (baseline): writes/s | ${(burst / baseline.seconds).toFixed(0)} |`,
    );
    console.log(`| Same burst with a subscribed endpoint: writes/s | ${(burst / withHook.seconds).toFixed(0)} |`);
    console.log(`| … deliveries/s (first request → last receipt) | ${(burst / deliverySeconds).toFixed(0)} |`);
    console.log(`| … last delivery after the burst ended | ${ms(lastReceipt - withHook.started - withHook.seconds * 1000)} |`);
  } finally {
    await service.server.stop();
    receiver.close();
  }
}

main().catch((err: Error) => {
  console.error(err);
  process.exit(1);
});
