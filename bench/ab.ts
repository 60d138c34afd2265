/**
 * Side-by-side A/B of two builds of the service: both run at once on the same PostgreSQL
 * server, each with its own database seeded alike, and are loaded at the same time, window
 * after window, so CPU steal and background load hit both alike. On a shared machine that is
 * the only way to see a 10 % change: two windows a few seconds apart on one build differ by
 * more than that. Each build has its own database so that its background work (the audit
 * sealer, webhooks, jobs) handles its own writes only, as in production: on one shared
 * database one build's sealer sealed both builds' events and paid for the other's writes.
 *
 *   git worktree add /tmp/before <commit> && (cd /tmp/before && npm ci && npx nest build)
 *   npm run build
 *   npx ts-node --transpile-only bench/ab.ts --a=/tmp/before --b=. [--scenario=NAME] [--rounds=10] [--duration=3] [--warmup=4] [--cpu-prof] [--workers=2,1]
 *
 * Scenarios: get (SCIM GET /Users/{id}), filter (userName eq), create (POST /Users), group-patch
 * (PATCH /Groups/{id}?excludedAttributes=members adding one member; each build has its own group),
 * group-patch-okta (the same PATCH without a query, as Okta and Entra send it: 204 since decision 0133), audit-first and
 * audit-deep (the audit list at 1,000,000 events), sso (GET /saml/sso/ for a signed-in browser)
 * and sign-in (POST /e/v1/auth/login/, argon2-bound); oidc-refresh and oidc-exchange (POST /oauth/token, each request
 * spending one of BENCH_OIDC_CREDENTIALS seeded refresh tokens or codes), oidc-userinfo (GET /oauth/userinfo) and
 * oidc-introspect (POST /oauth/introspect), both over 20 access tokens from the build's own token endpoint.
 *
 * Each directory must hold a built service (dist/main.js); each boots on a fresh database of its
 * own and runs with the Node flags of its own `npm run start:prod`. Prints each round (with both
 * builds' peak RSS and PSS) and the median ratios B/A of server CPU per request and of requests per
 * second. Which side a build runs on biases the result a little: for a decision, run both orders
 * and take the geometric mean of the first ratio and the inverse of the second (decision 0601). --cpu-prof writes both builds' V8 CPU profiles to
 * <build>/bench/results/profiles/ (open in Chrome DevTools or speedscope).
 */
import { createHash, randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import type { Pool } from 'pg';
import request from 'supertest';
import { aTenant, anEndUser } from '../test/end-users/support';
import type { TestApp } from '../test/support/app';
import { SmtpReceiver, startSmtpReceiver } from '../test/support/smtp-receiver';
import { samlEnv } from '../test/saml/support/saml-env';
import { ApiClient } from './lib/api-client';
import { AUDIT_EVENTS, AUDIT_SEED_COLUMNS, AUDIT_SEED_SELECT, deepPageCursors } from './lib/audit-seed';
import { measure } from './lib/load';
import { accessTokens, formHeaders, provisionOidc, REDIRECT_URI, seedOidcCredentials } from './lib/oidc-seed';
import { databaseSuffix, pool, recreateDatabase } from './lib/postgres';
import { signedInBrowser } from './lib/sso-seed';
import { createDeveloper, createWorkspace, startService } from './lib/service';
import type { BenchRequest } from './lib/types';
import { newUserBody } from './scenarios/scim';

const USERS = 20_000;

const SCENARIOS = [
  'get',
  'filter',
  'create',
  'group-patch',
  'group-patch-okta',
  'audit-first',
  'audit-deep',
  'sso',
  'sign-in',
  'oidc-refresh',
  'oidc-exchange',
  'oidc-userinfo',
  'oidc-introspect',
] as const;
/** Single-use refresh tokens and codes seeded per build for the oidc-* scenarios (raise for long runs). */
const OIDC_CREDENTIALS = Number(process.env.BENCH_OIDC_CREDENTIALS ?? 30_000);
type ScenarioName = (typeof SCENARIOS)[number];

interface Options {
  a: string;
  b: string;
  scenario: ScenarioName;
  rounds: number;
  durationSec: number;
  /**
   * Seconds of load before the first round. The service's CPU counts every thread, and V8's compiler
   * threads are busy for the first 15–30 s of traffic; a build with more code keeps them busy longer,
   * so a short warm-up charges the bigger build its compilation (decision 0613 found it for SSO).
   */
  warmupSec: number;
  cpuProf: boolean;
  /** WEB_CONCURRENCY of each build (`--workers=2,1`); unset, each runs its own default. */
  workers: [string | undefined, string | undefined];
}

const USAGE = `usage: bench/ab.ts --a=<build dir> --b=<build dir> [--scenario=${SCENARIOS.join('|')}] [--rounds=10] [--duration=3] [--warmup=4] [--cpu-prof] [--workers=2,1]`;

function parseOptions(argv: string[]): Options {
  if (argv.includes('--help')) {
    console.log(USAGE);
    process.exit(0);
  }
  const arg = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const scenario = SCENARIOS.find((name) => name === (arg('scenario') ?? 'get'));
  if (!scenario) throw new Error(`--scenario must be one of ${SCENARIOS.join(', ')}`);
  const b = arg('b');
  if (!b) {
    throw new Error(USAGE);
  }
  return {
    a: resolve(arg('a') ?? '.'),
    b: resolve(b),
    scenario,
    rounds: Number(arg('rounds') ?? 10),
    durationSec: Number(arg('duration') ?? 3),
    warmupSec: Number(arg('warmup') ?? 4),
    cpuProf: argv.includes('--cpu-prof'),
    workers: [arg('workers')?.split(',')[0], arg('workers')?.split(',')[1]],
  };
}

async function main(): Promise<void> {
  const opts = parseOptions(process.argv.slice(2));
  // Per worktree: two sessions running A/Bs at once must not recreate each other's databases.
  const suffix = databaseSuffix(process.cwd());
  const [urlA, urlB] = await Promise.all([
    recreateDatabase(`identity_bench_ab_${suffix}_a`),
    recreateDatabase(`identity_bench_ab_${suffix}_b`),
  ]);
  const smtp = await startSmtpReceiver();
  // SAML configured and the per-IP sign-in limits lifted, in both builds alike: every scenario runs on the same services.
  const env = {
    ...samlEnv(),
    SMTP_URL: smtp.url,
    RATE_LIMIT_AUTH_PER_MINUTE: '100000000',
    // Throughput runs drive one workspace flat out: a budget that never binds, still spent per request.
    TENANT_RATE_PER_SECOND: '1000000',
    TENANT_MAX_IN_FLIGHT: '0',
    RATE_LIMIT_ACCOUNT_PER_MINUTE: '100000000',
    RATE_LIMIT_SAML_SSO_PER_MINUTE: '100000000',
    // The audit sealer's full sweep (decision 0710) keeps its default (every 10 min): the events
    // seeded with old timestamps stay unsealed during the rounds, which read the log as a live
    // service does, while the sealer's one-second passes run as in production.
  };
  const workers = (n: string | undefined): Record<string, string> => (n ? { WEB_CONCURRENCY: n } : {});
  const a = await startService(opts.a, urlA, { ...env, ...workers(opts.workers[0]) }, opts.cpuProf);
  const b = await startService(opts.b, urlB, { ...env, ...workers(opts.workers[1]) }, opts.cpuProf);
  const [dbA, dbB] = [pool(urlA), pool(urlB)];
  try {
    const loads = {
      a: await seed(a.baseUrl, dbA, opts.scenario, smtp, 'A'),
      b: await seed(b.baseUrl, dbB, opts.scenario, smtp, 'B'),
    };
    const load = { durationSec: opts.durationSec, warmupSec: 0, connections: 10 };
    await Promise.all([
      measure(a.server, a.baseUrl, loads.a, { ...load, warmupSec: opts.warmupSec }),
      measure(b.server, b.baseUrl, loads.b, { ...load, warmupSec: opts.warmupSec }),
    ]);
    const cpu: number[] = [];
    const rps: number[] = [];
    for (let round = 1; round <= opts.rounds; round++) {
      const [ma, mb] = await Promise.all([measure(a.server, a.baseUrl, loads.a, load), measure(b.server, b.baseUrl, loads.b, load)]);
      cpu.push(mb.cpuMsPerRequest / ma.cpuMsPerRequest);
      rps.push(mb.requestsPerSec / ma.requestsPerSec);
      console.log(
        `round ${round}: A ${Math.round(ma.requestsPerSec)} req/s, ${ma.cpuMsPerRequest} ms CPU/req, RSS ${Math.round(ma.rssMb)} MB, PSS ${Math.round(ma.pssMb ?? 0)} MB | ` +
          `B ${Math.round(mb.requestsPerSec)} req/s, ${mb.cpuMsPerRequest} ms CPU/req, RSS ${Math.round(mb.rssMb)} MB, PSS ${Math.round(mb.pssMb ?? 0)} MB` +
          // A window with failures measures the failures: say so beside its figures.
          (ma.non2xx + ma.errors + mb.non2xx + mb.errors > 0
            ? ` | non-2xx/errors A ${ma.non2xx}/${ma.errors} ${ma.non2xxStatuses ?? ''}, B ${mb.non2xx}/${mb.errors} ${mb.non2xxStatuses ?? ''}`
            : ''),
      );
    }
    console.log(`B/A server CPU per request: median ${median(cpu).toFixed(2)} (rounds ${cpu.map((r) => r.toFixed(2)).join(' ')})`);
    console.log(`B/A requests per second:    median ${median(rps).toFixed(2)} (rounds ${rps.map((r) => r.toFixed(2)).join(' ')})`);
  } finally {
    await Promise.all([dbA.end(), dbB.end()]);
    await Promise.all([a.server.stop(), b.server.stop()]);
    await smtp.stop();
  }
}

/** The data a scenario needs, created through one build's API in its own database, and the requests that load it. */
async function seed(baseUrl: string, db: Pool, scenario: ScenarioName, smtp: SmtpReceiver, build: string): Promise<BenchRequest[]> {
  // The test factories only need an HTTP client aimed at the service.
  const t = { http: () => request(baseUrl), baseUrl } as unknown as TestApp;
  switch (scenario) {
    case 'get':
    case 'filter':
    case 'create':
      return scimRequests(new ApiClient(baseUrl), db, scenario);
    case 'group-patch':
    case 'group-patch-okta':
      return groupPatchRequests(new ApiClient(baseUrl), db, build, scenario === 'group-patch' ? '?excludedAttributes=members' : '');
    case 'audit-first':
    case 'audit-deep':
      return auditRequests(new ApiClient(baseUrl), db, scenario);
    case 'sso':
      return (await signedInBrowser(baseUrl, smtp)).requests;
    case 'oidc-refresh':
    case 'oidc-exchange':
    case 'oidc-userinfo':
    case 'oidc-introspect':
      return oidcRequests(baseUrl, db, scenario);
    case 'sign-in': {
      const tenant = await aTenant(t);
      const user = await anEndUser(t, tenant.client, { smtp });
      const body = JSON.stringify({ client_id: user.clientId, email: user.email, password: user.password });
      return [{ method: 'POST', path: '/e/v1/auth/login/', headers: { 'content-type': 'application/json' }, body }];
    }
  }
}

/** A SCIM token and USERS users in a fresh workspace. */
async function scimWorkspace(api: ApiClient, db: Pool): Promise<{ headers: Record<string, string>; userIds: string[]; emails: string[] }> {
  const dev = await createDeveloper(api);
  const ws = await createWorkspace(api, dev, 'ab');
  const minted = await api.post<{ token: string }>('/developer/scim/tokens/', {
    headers: dev.authHeaders,
    body: { workspace_id: ws.id, label: 'ab' },
  });
  await db.query(
    `INSERT INTO end_users (workspace_id, email, first_name, last_name, is_active, email_verified, created_at, updated_at)
     SELECT $1, 'user' || g || '@bench.example', 'Given' || g, 'Family' || g, true, true, now() - (g || ' seconds')::interval, now()
       FROM generate_series(1, $2::int) g`,
    [ws.id, USERS],
  );
  await db.query('VACUUM (ANALYZE) end_users');
  const { rows } = await db.query<{ id: string; email: string }>(
    `SELECT id, email FROM end_users WHERE workspace_id = $1 ORDER BY random()`,
    [ws.id],
  );
  const headers = { authorization: `Bearer ${minted.body.token}`, 'content-type': 'application/scim+json' };
  return { headers, userIds: rows.map((r) => r.id), emails: rows.map((r) => r.email) };
}

async function scimRequests(api: ApiClient, db: Pool, scenario: 'get' | 'filter' | 'create'): Promise<BenchRequest[]> {
  const { headers, userIds, emails } = await scimWorkspace(api, db);
  if (scenario === 'get') return userIds.slice(0, 100).map((id) => ({ path: `/scim/v2/Users/${id}`, headers }));
  if (scenario === 'filter') {
    return emails
      .slice(0, 100)
      .map((email) => ({ path: `/scim/v2/Users?filter=${encodeURIComponent(`userName eq "${email.toUpperCase()}"`)}`, headers }));
  }
  return [{ method: 'POST', path: '/scim/v2/Users', headers, newBody: newUserBody }];
}

/** A group, each PATCH adding one user not yet a member (2xx counts as success: 200 with `query`, 204 without). */
async function groupPatchRequests(api: ApiClient, db: Pool, build: string, query: string): Promise<BenchRequest[]> {
  const { headers, userIds } = await scimWorkspace(api, db);
  const group = await api.post<{ id: string }>('/scim/v2/Groups', {
    headers,
    body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: `ab group ${build}` },
  });
  let next = 0;
  const newBody = () =>
    JSON.stringify({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'add', path: 'members', value: [{ value: userIds[next++ % userIds.length] }] }],
    });
  return [{ method: 'PATCH', path: `/scim/v2/Groups/${group.body.id}${query}`, headers, newBody }];
}

/** A workspace holding 1,000,000 audit events (seeded as bench/scenarios/audit-list.ts does), and its first or deep pages. */
async function auditRequests(api: ApiClient, db: Pool, scenario: 'audit-first' | 'audit-deep'): Promise<BenchRequest[]> {
  const dev = await createDeveloper(api);
  const ws = await createWorkspace(api, dev, 'ab audit');
  const newestMs = Math.floor(Date.now() / 1000) * 1000 - 1000;
  const client = await db.connect();
  try {
    await client.query('SET session_replication_role = replica');
    await client.query(`INSERT INTO audit_events ${AUDIT_SEED_COLUMNS} ${AUDIT_SEED_SELECT}`, [ws.id, newestMs, AUDIT_EVENTS]);
  } finally {
    await client.query('RESET session_replication_role');
    client.release();
  }
  await db.query('VACUUM (ANALYZE) audit_events');
  const path = `/developer/audit/?workspace_id=${ws.id}`;
  if (scenario === 'audit-first') return [{ path, headers: dev.authHeaders }];
  return deepPageCursors(newestMs).map((cursor) => ({ path: `${path}&cursor=${encodeURIComponent(cursor)}`, headers: dev.authHeaders }));
}

/** An application and a person; each request spends a seeded credential or reuses one of 20 access tokens. */
async function oidcRequests(
  baseUrl: string,
  db: Pool,
  scenario: 'oidc-refresh' | 'oidc-exchange' | 'oidc-userinfo' | 'oidc-introspect',
): Promise<BenchRequest[]> {
  const tenant = await provisionOidc(baseUrl, db);
  const verifier = randomBytes(32).toString('base64url');
  const seeded = await seedOidcCredentials(db, tenant, OIDC_CREDENTIALS, createHash('sha256').update(verifier).digest('base64url'));
  const headers = formHeaders(tenant.clientId, tenant.clientSecret);
  const spending = (values: string[], body: (value: string) => Record<string, string>) => {
    let next = 0;
    return () => {
      if (next >= values.length) throw new Error('ran out of seeded credentials: raise BENCH_OIDC_CREDENTIALS');
      return new URLSearchParams(body(values[next++])).toString();
    };
  };
  if (scenario === 'oidc-refresh') {
    return [
      {
        method: 'POST',
        path: '/oauth/token',
        headers,
        newBody: spending(seeded.refresh, (rt) => ({ grant_type: 'refresh_token', refresh_token: rt })),
      },
    ];
  }
  const access = await accessTokens(baseUrl, tenant, seeded.codes.splice(-20), verifier);
  if (scenario === 'oidc-exchange') {
    const exchange = (code: string) => ({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier });
    return [{ method: 'POST', path: '/oauth/token', headers, newBody: spending(seeded.codes, exchange) }];
  }
  if (scenario === 'oidc-userinfo') {
    return access.map((token) => ({ path: '/oauth/userinfo', headers: { authorization: `Bearer ${token}` } }));
  }
  return access.map((token) => ({ method: 'POST', path: '/oauth/introspect', headers, body: `token=${token}` }));
}

function median(values: number[]): number {
  return [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
