/**
 * One noisy workspace must not slow the others (issue 27). 40 quiet workspaces each send 25 SCIM
 * requests a second (reads, creates, PATCHes) while one noisy workspace pushes as hard as 20
 * connections allow. Three windows in one run, on the built service with its default worker count:
 * the quiet tenants alone (the baseline), with the noisy one and budgets off, with the noisy one
 * and the default budgets. Target: quiet p99 ≤ 100 ms with budgets on; the noisy tenant gets 429s,
 * never 5xx.
 *
 * The noisy tenant's load generator runs in a child process at a lower CPU priority (`nice -n 10`), as a
 * noisy client would run on a machine of its own: on these two shared cores its loop would otherwise take
 * CPU from the service and delay the quiet tenants' timings in this process. It still pushes with 20
 * connections; the table shows how many requests a second it sent (answered or refused).
 * `--noisy-nice=0` runs it at the same priority as everything else. A fourth window runs the noisy tenant
 * alone with the budgets on and prices its requests (nearly all refusals) in the service's CPU per request.
 *
 *   npx ts-node --transpile-only bench/fairness.ts [--duration=20] [--no-build] [--noisy-nice=10] [--noisy-only] [--write]
 *
 * `--write` rewrites this bench's block of BENCHMARKS.md with the table.
 */
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from './lib/api-client';
import { writeBlock } from './lib/report';
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

function summary(t: Tally): Summary {
  const sorted = Float64Array.from(t.latencies).sort();
  const count = (pred: (s: number) => boolean) => [...t.statuses].filter(([s]) => pred(s)).reduce((n, [, c]) => n + c, 0);
  return {
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    ok: count((s) => s < 300),
    r429: count((s) => s === 429),
    r5xx: count((s) => s >= 500),
    sent: count(() => true),
  };
}

interface Summary {
  p50: number;
  p99: number;
  ok: number;
  r429: number;
  r5xx: number;
  sent: number;
}

/**
 * The noisy tenant's load in a child process (this file with --noisy-child), niced: it loads, says "ready",
 * fires when told "go" on stdin, and prints its summary as one JSON line.
 */
async function noisyChild(baseUrl: string, tenant: Tenant, seconds: number, niceness: number): Promise<{ go: () => Promise<Summary> }> {
  const args = ['-r', 'ts-node/register/transpile-only', __filename, '--noisy-child', JSON.stringify({ baseUrl, tenant, seconds })];
  const child =
    niceness > 0
      ? spawn('nice', ['-n', String(niceness), process.execPath, ...args], { stdio: ['pipe', 'pipe', 'inherit'] })
      : spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const check = setInterval(() => {
      if (out.includes('ready\n')) {
        clearInterval(check);
        resolve();
      }
    }, 20);
    child.once('exit', (code) => {
      clearInterval(check);
      reject(new Error(`noisy generator exited ${code}`));
    });
  });
  return {
    go: () =>
      new Promise<Summary>((resolve, reject) => {
        child.removeAllListeners('exit');
        child.once('exit', (code) => {
          const line = out.split('\n').find((l) => l.startsWith('{'));
          if (code === 0 && line) resolve(JSON.parse(line) as Summary);
          else reject(new Error(`noisy generator exited ${code}`));
        });
        child.stdin!.end('go\n');
      }),
  };
}

async function runNoisyChild(spec: { baseUrl: string; tenant: Tenant; seconds: number }): Promise<void> {
  process.stdout.write('ready\n');
  await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
  const tally = await fire(spec.baseUrl, [spec.tenant], { connectionsPerTenant: NOISY_CONNECTIONS }, spec.seconds);
  process.stdout.write(`${JSON.stringify(summary(tally))}\n`);
}

/**
 * One window on a fresh service. `quietToo` false runs the noisy tenant alone, which prices a request of
 * its mix (mostly refusals with budgets on) in the service's CPU: µs of CPU per request sent, from /proc,
 * which the load of other processes moves much less than latencies.
 */
async function window(
  budgets: Record<string, string>,
  noisy: boolean,
  seconds: number,
  niceness: number,
  quietToo = true,
): Promise<string> {
  const dbUrl = await recreateDatabase('bench_fairness');
  const { server, baseUrl } = await startService(ROOT, dbUrl, { LOG_LEVEL: 'warn', ...budgets }, false);
  try {
    const [quiet, loud] = [await tenants(baseUrl, QUIET), await tenants(baseUrl, 1)];
    await fire(baseUrl, quiet, { connectionRate: QUIET_RATE, connectionsPerTenant: 1 }, 3); // warm-up
    const generator = noisy ? await noisyChild(baseUrl, loud[0], seconds, niceness) : undefined;
    const cpuBefore = server.cpuSeconds();
    const [q, ns] = await Promise.all([
      quietToo ? fire(baseUrl, quiet, { connectionRate: QUIET_RATE, connectionsPerTenant: 1 }, seconds) : undefined,
      generator ? generator.go() : Promise.resolve(undefined),
    ]);
    const cpu = server.cpuSeconds() - cpuBefore;
    const load = loadavg()[0].toFixed(1);
    const cores = (cpu / seconds).toFixed(2);
    const perNoisy = ns && !quietToo ? `${Math.round((cpu * 1e6) / ns.sent)} µs per noisy request` : '';
    const quietCells = q
      ? (() => {
          const qs = summary(q);
          return `${qs.p50} | **${qs.p99}** | ${Math.round(qs.ok / seconds)} | ${qs.r429} | ${qs.r5xx}`;
        })()
      : '– | – | – | – | –';
    const noisyCells = ns ? `${Math.round(ns.sent / seconds)} | ${Math.round(ns.ok / seconds)} | ${ns.r429} | ${ns.r5xx}` : '– | – | – | –';
    return `| ${quietCells} | ${noisyCells} | ${cores} ${perNoisy} | ${load} |`;
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const childAt = process.argv.indexOf('--noisy-child');
  if (childAt >= 0) return runNoisyChild(JSON.parse(process.argv[childAt + 1]) as { baseUrl: string; tenant: Tenant; seconds: number });
  const seconds = arg('duration', 20);
  const niceness = arg('noisy-nice', 10);
  if (!process.argv.includes('--no-build')) await buildService(ROOT);
  const loadBefore = loadavg()[0].toFixed(1);
  const defaults = { TENANT_RATE_PER_SECOND: '100', TENANT_MAX_IN_FLIGHT: '8' };
  const off = { TENANT_RATE_PER_SECOND: '0', TENANT_MAX_IN_FLIGHT: '0' };
  const noisyAlone = `| noisy alone, default budgets ${await window(defaults, true, seconds, niceness, false)}`;
  const rows = process.argv.includes('--noisy-only')
    ? [noisyAlone]
    : [
        `| quiet alone (baseline), default budgets ${await window(defaults, false, seconds, niceness)}`,
        `| quiet + noisy, budgets off ${await window(off, true, seconds, niceness)}`,
        `| quiet + noisy, default budgets ${await window(defaults, true, seconds, niceness)}`,
        noisyAlone,
      ];
  const table =
    `${QUIET} quiet workspaces × ${QUIET_RATE} req/s, 1 noisy workspace × ${NOISY_CONNECTIONS} connections ` +
    `(its load generator in a child process at nice ${niceness}), ${seconds} s windows, load average before: ${loadBefore}\n\n` +
    `| window | quiet p50 ms | quiet p99 ms | quiet ok/s | quiet 429 | quiet 5xx | noisy sent/s | noisy ok/s | noisy 429 | noisy 5xx | service CPU (cores) | load 1 m after |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n` +
    rows.join('\n') +
    '\n';
  process.stdout.write(`\n${table}`);
  if (process.argv.includes('--write')) {
    const command = `npx ts-node --transpile-only bench/fairness.ts --duration=${seconds}${niceness === 10 ? '' : ` --noisy-nice=${niceness}`}`;
    const block =
      `## One noisy workspace beside forty quiet ones (\`bench/fairness.ts\`)\n\n` +
      `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC with \`${command}\`, the built service with its default ` +
      `worker count. Target: quiet p99 ≤ 100 ms with the noisy workspace and the default budgets; the noisy one gets 429s, never 5xx. ` +
      `Read the quiet p99 beside the same run's baseline (quiet alone).\n\n${table}`;
    writeBlock(join(ROOT, 'BENCHMARKS.md'), FAIRNESS_START, FAIRNESS_END, block);
  }
}

const FAIRNESS_START = '<!-- fairness:start (generated by bench/fairness.ts --write) -->';
const FAIRNESS_END = '<!-- fairness:end -->';

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
