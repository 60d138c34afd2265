/**
 * One noisy workspace must not slow the others (issue 27). 40 quiet workspaces each send 25 SCIM
 * requests a second (reads, creates, PATCHes) while one noisy workspace pushes as hard as 20
 * connections allow. Three windows in one run, on the built service with its default worker count:
 * the quiet tenants alone (the baseline), with the noisy one and budgets off, with the noisy one
 * and the default budgets. Target: quiet p99 ≤ 100 ms with budgets on; the noisy tenant gets 429s,
 * never 5xx.
 *
 *   npx ts-node --transpile-only bench/fairness.ts [--duration=20] [--no-build]
 */
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { ApiClient } from './lib/api-client';
import { percentile } from './lib/load';
import { recreateDatabase } from './lib/postgres';
import { buildService, createDeveloper, createWorkspace, startService } from './lib/service';

const ROOT = join(__dirname, '..');
const QUIET = 40;
const QUIET_RATE = 25;
const NOISY_CONNECTIONS = 20;
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

interface Tenant {
  token: string;
  userId: string;
}

interface Tally {
  latencies: number[];
  statuses: Map<number, number>;
}

function arg(name: string, fallback: number): number {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
}

async function tenants(baseUrl: string, count: number): Promise<Tenant[]> {
  const api = new ApiClient(baseUrl);
  const dev = await createDeveloper(api);
  const out: Tenant[] = [];
  for (let i = 0; i < count; i++) {
    const ws = await createWorkspace(api, dev, `fair-${i}`);
    const minted = await api.post<{ token: string }>('/developer/scim/tokens/', {
      body: { workspace_id: ws.id, label: 'bench' },
      headers: dev.authHeaders,
    });
    const token = minted.body.token;
    const user = await api.post<{ id: string }>('/scim/v2/Users', {
      body: { schemas: [USER], userName: `seed-${randomUUID()}@example.com` },
      headers: { authorization: `Bearer ${token}` },
    });
    out.push({ token, userId: user.body.id });
  }
  return out;
}

/** The mix an identity provider sends: reads, a filter, a create, a PATCH. */
function mix(tenant: Tenant): autocannon.Request[] {
  const headers = { authorization: `Bearer ${tenant.token}`, 'content-type': 'application/scim+json' };
  return [
    { method: 'GET', path: `/scim/v2/Users/${tenant.userId}`, headers },
    { method: 'GET', path: `/scim/v2/Users?count=10`, headers },
    {
      method: 'POST',
      path: '/scim/v2/Users',
      headers,
      setupRequest: (req) => ({ ...req, body: JSON.stringify({ schemas: [USER], userName: `u-${randomUUID()}@example.com` }) }),
    },
    {
      method: 'PATCH',
      path: `/scim/v2/Users/${tenant.userId}`,
      headers,
      body: JSON.stringify({ schemas: [PATCH], Operations: [{ op: 'replace', path: 'displayName', value: 'Quiet Tenant' }] }),
    },
  ];
}

function fire(
  baseUrl: string,
  group: Tenant[],
  opts: { connectionRate?: number; connectionsPerTenant: number },
  seconds: number,
): Promise<Tally> {
  const tally: Tally = { latencies: [], statuses: new Map() };
  let next = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: baseUrl,
        connections: group.length * opts.connectionsPerTenant,
        connectionRate: opts.connectionRate,
        duration: seconds,
        // Each connection belongs to one tenant and cycles through that tenant's mix.
        requests: [{ method: 'GET', path: '/health/live' }],
        setupClient: (client) => {
          const tenant = group[Math.floor(next++ / opts.connectionsPerTenant) % group.length];
          (client as unknown as { setRequests(r: autocannon.Request[]): void }).setRequests(mix(tenant));
        },
      },
      (err) => (err ? reject(err) : resolve(tally)),
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1);
      if (status < 300) tally.latencies.push(ms);
    });
  });
}

function summary(t: Tally): { p50: number; p99: number; ok: number; r429: number; r5xx: number } {
  const sorted = Float64Array.from(t.latencies).sort();
  const count = (pred: (s: number) => boolean) => [...t.statuses].filter(([s]) => pred(s)).reduce((n, [, c]) => n + c, 0);
  return {
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    ok: count((s) => s < 300),
    r429: count((s) => s === 429),
    r5xx: count((s) => s >= 500),
  };
}

async function window(budgets: Record<string, string>, noisy: boolean, seconds: number): Promise<string> {
  const dbUrl = await recreateDatabase('bench_fairness');
  const { server, baseUrl } = await startService(ROOT, dbUrl, { LOG_LEVEL: 'warn', ...budgets }, false);
  try {
    const [quiet, loud] = [await tenants(baseUrl, QUIET), await tenants(baseUrl, 1)];
    await fire(baseUrl, quiet, { connectionRate: QUIET_RATE, connectionsPerTenant: 1 }, 3); // warm-up
    const [q, n] = await Promise.all([
      fire(baseUrl, quiet, { connectionRate: QUIET_RATE, connectionsPerTenant: 1 }, seconds),
      noisy ? fire(baseUrl, loud, { connectionsPerTenant: NOISY_CONNECTIONS }, seconds) : Promise.resolve(undefined),
    ]);
    const qs = summary(q);
    const ns = n ? summary(n) : undefined;
    return `| ${qs.p50} | **${qs.p99}** | ${Math.round(qs.ok / seconds)} | ${qs.r429} | ${qs.r5xx} | ${ns ? `${Math.round(ns.ok / seconds)} | ${ns.r429} | ${ns.r5xx}` : '– | – | –'} |`;
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const seconds = arg('duration', 20);
  if (!process.argv.includes('--no-build')) await buildService(ROOT);
  const defaults = { TENANT_RATE_PER_SECOND: '100', TENANT_MAX_IN_FLIGHT: '8' };
  const off = { TENANT_RATE_PER_SECOND: '0', TENANT_MAX_IN_FLIGHT: '0' };
  const rows = [
    `| quiet alone (baseline), default budgets ${await window(defaults, false, seconds)}`,
    `| quiet + noisy, budgets off ${await window(off, true, seconds)}`,
    `| quiet + noisy, default budgets ${await window(defaults, true, seconds)}`,
  ];
  process.stdout.write(
    `\n${QUIET} quiet workspaces × ${QUIET_RATE} req/s, 1 noisy workspace × ${NOISY_CONNECTIONS} connections, ${seconds} s windows\n\n` +
      `| window | quiet p50 ms | quiet p99 ms | quiet ok/s | quiet 429 | quiet 5xx | noisy ok/s | noisy 429 | noisy 5xx |\n|---|---|---|---|---|---|---|---|---|\n` +
      rows.join('\n') +
      '\n',
  );
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
