/**
 * SAML benchmark (issue 5). Run: npx ts-node bench/saml.ts [--cpu-prof]
 * (BENCH_ROUNDS=5 rounds of BENCH_DURATION_S=4 s SSO windows, BENCH_CONNECTIONS=16)
 *
 * - baselines: xml-crypto signing a typical ~3 KB assertion with the key passed as PEM text, and the same
 *   xml-crypto signature with the key parsed once into a KeyObject (issue 27's "KeyObject signing loop",
 *   770/s there), on this thread, measured before and after every SSO window (same process). The bare
 *   RSA-SHA256 signature (no XML) is reported too, as the floor of any signer.
 * - PostgreSQL: the CPU its backends for the bench database used in each window (from /proc), per SSO, and the
 *   bound it sets: with the service and PostgreSQL on the same cores, N cores serve at most N × (SSOs per CPU-second
 *   of service + PostgreSQL), whatever the worker count.
 * - per core: the SSO rate divided by the worker count (one event loop per core), against the KeyObject
 *   loop on one thread; and, closer to "per core" on a machine whose cores also run PostgreSQL and the load
 *   generator, SSOs per CPU-second the service's processes used during the window (from /proc).
 * - sso: GET /saml/sso/ for signed-in browsers (one esid cookie per connection)
 *   through the real service: parse the AuthnRequest, look up the session, the SP
 *   and the user, build, sign, audit, render the auto-submit page. The service runs
 *   as its own process (dist/main.js, as test/support/app-process.ts starts it), first with one
 *   worker (one event loop = one core), then with one worker per core (its default), on the same
 *   database and sessions; autocannon runs in a worker thread of this process.
 * - pipeline: the same parse/build/sign/render without HTTP or database, in-process.
 * - metadata: GET /saml/metadata/ latency percentiles.
 * Results: bench/results/saml.json.
 */
import 'reflect-metadata';
import autocannon from 'autocannon';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { readRedirectAuthnRequest } from '../src/saml/protocol/authn-request.parser';
import { AUTHN_CLASS } from '../src/saml/protocol/authn-context';
import { buildLoginResponse } from '../src/saml/protocol/login-response.builder';
import { renderAutoPostPage } from '../src/saml/protocol/post-form.page';
import { IdpSettings, resolveIdpState } from '../src/saml/idp/idp-settings';
import { aTenant, anEndUser } from '../test/end-users/support';
import type { TestApp } from '../test/support/app';
import { spawnApp } from '../test/support/app-process';
import { databaseUrl, recreateDatabase, withAdmin } from '../test/support/databases';
import { SmtpReceiver, startSmtpReceiver } from '../test/support/smtp-receiver';
import { aRegisteredSp, authorizePath, formFields } from '../test/saml/support/saml-sso.helpers';
import { samlEnv, testIdpKeyPair } from '../test/saml/support/saml-env';
import { bareRsaSignRate, baselineLoop, keyObjectSignRate, LoopRate, loopRate } from './saml-baseline';
import { backendCpuSeconds, treeCpuSeconds } from './lib/proc';
import { loadavg } from 'node:os';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 6);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const PROFILE_DIR = join(__dirname, 'results/profiles', `saml-${new Date().toISOString().replace(/[:.]/g, '')}`);

function run(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

/**
 * autocannon's setupClient runs in its worker thread and must be a JS file there:
 * each connection presents another signed-in browser's cookie, as distinct users would.
 */
/**
 * autocannon's per-connection setup (a file: it runs in a worker thread): one signed-in browser per
 * connection, and a new AuthnRequest of the SP for every request, as an SP sends (the IdP answers
 * each request ID once).
 */
function writeSetupClient(cookies: string[], sp: { entityId: string; acsUrl: string }): string {
  const dir = mkdtempSync(join(tmpdir(), 'idsvc-bench-saml-'));
  const file = join(dir, 'setup-client.js');
  const source = `'use strict';
const { deflateRawSync } = require('node:zlib');
const { randomUUID } = require('node:crypto');
const cookies = ${JSON.stringify(cookies)};
const sp = ${JSON.stringify(sp)};
const escape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
function freshPath() {
  const xml =
    '<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ' +
    'ID="_' + randomUUID().replace(/-/g, '') + '" Version="2.0" IssueInstant="' + new Date().toISOString() + '" ' +
    'AssertionConsumerServiceURL="' + escape(sp.acsUrl) + '"><saml:Issuer>' + escape(sp.entityId) + '</saml:Issuer></samlp:AuthnRequest>';
  return '/saml/sso/?SAMLRequest=' + encodeURIComponent(deflateRawSync(Buffer.from(xml)).toString('base64')) + '&RelayState=%2Fdashboard';
}
let next = 0;
module.exports = (client) => {
  client.setHeaders({ cookie: cookies[next++ % cookies.length] });
  client.setRequests([{ method: 'GET', path: freshPath(), setupRequest: (req) => ({ ...req, path: freshPath() }) }]);
};
`;
  writeFileSync(file, source, { mode: 0o600 });
  return file;
}

function pipelineRate(settings: IdpSettings, samlRequest: string, ms = 4000): LoopRate {
  const once = () => {
    const req = readRedirectAuthnRequest(samlRequest);
    const built = buildLoginResponse(settings, {
      inResponseTo: req.id,
      acsUrl: req.acsUrl!,
      audience: req.issuer,
      nameId: 'ada@example.test',
      nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      sessionIndex: 'b3a0e7b2-5a4c-4d1e-9b7e-3f6f0c2d1a9e',
      authnContextClassRef: AUTHN_CLASS.passwordProtectedTransport,
      authnInstant: new Date(),
      signAssertion: true,
      attributes: [
        { name: 'email', value: 'ada@example.test' },
        { name: 'firstName', value: 'Ada' },
        { name: 'lastName', value: 'Lovelace' },
        { name: 'displayName', value: 'Ada Lovelace' },
        { name: 'uid', value: 'b3a0e7b2-5a4c-4d1e-9b7e-3f6f0c2d1a9e' },
      ],
    });
    return renderAutoPostPage({ action: req.acsUrl!, samlResponse: Buffer.from(built.xml).toString('base64'), relayState: '/dashboard' })
      .html;
  };
  return loopRate(once, ms);
}

interface SsoRound {
  baseline: number;
  keyObject: number;
  /** The KeyObject loop's signatures per CPU-second of this thread. */
  keyObjectPerCpu: number;
  bareRsa: number;
  sso: number;
  /** Service CPU-seconds (all its processes) per second of the window. */
  serviceCores: number;
  /** Cores PostgreSQL's backends for the bench database used during the window. */
  postgresCores: number;
  load1: number;
  p50: number;
  p99: number;
  non2xx: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Interleaved rounds: the machine's load drifts, so each SSO window is compared with baseline
 * windows (xml-crypto with PEM text, and the bare KeyObject signature) measured just before and after it.
 */
async function ssoRounds(
  baseUrl: string,
  servicePid: number,
  path: string,
  setupClient: string,
  workers: number,
  db: string,
): Promise<SsoRound[]> {
  const { keyPem, certPem } = testIdpKeyPair();
  const load = (duration: number) =>
    run({
      url: `${baseUrl}${path}`,
      setupClient: setupClient as unknown as autocannon.Options['setupClient'],
      connections: CONNECTIONS,
      duration,
      workers: 1,
    });
  // Not counted: JIT, connection pool, Postgres caches of the fresh database. Each worker warms its own JIT on
  // its share of the requests, so the warm-up is per worker: with half the traffic each, two workers measured
  // after one worker's warm-up spent 10-30 % of their CPU compiling on V8's background threads (issue 27).
  await load(WARMUP_S * workers);
  const rounds: SsoRound[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const loops = () => [baselineLoop(keyPem, certPem, 1500), keyObjectSignRate(keyPem, certPem, 1500), bareRsaSignRate(keyPem, 500)];
    const before = loops();
    const cpuBefore = treeCpuSeconds(servicePid);
    const pgBefore = await backendCpuSeconds(db);
    const startedAt = process.hrtime.bigint();
    const sso = await load(DURATION_S);
    const elapsed = Number(process.hrtime.bigint() - startedAt) / 1e9;
    const serviceCores = (treeCpuSeconds(servicePid) - cpuBefore) / elapsed;
    const postgresCores = ((await backendCpuSeconds(db)) - pgBefore) / elapsed;
    const load1 = loadavg()[0];
    const after = loops();
    const mean = (i: number) => (before[i].perSecond + after[i].perSecond) / 2;
    rounds.push({
      baseline: mean(0),
      keyObject: mean(1),
      keyObjectPerCpu: (before[1].perCpuSecond + after[1].perCpuSecond) / 2,
      bareRsa: mean(2),
      sso: sso.requests.average,
      serviceCores,
      postgresCores,
      load1,
      p50: sso.latency.p50,
      p99: sso.latency.p99,
      non2xx: sso.non2xx + sso.errors + sso.timeouts,
    });
  }
  return rounds;
}

function summarizeRounds(rounds: SsoRound[], workers: number) {
  return {
    workers,
    sso_signed_in_responses_per_s_median: Math.round(median(rounds.map((r) => r.sso))),
    sso_vs_baseline_percent_median: Math.round(median(rounds.map((r) => r.sso / r.baseline)) * 100),
    // Per core: each worker is one event loop, so one core's share of the SSO rate.
    sso_per_worker_vs_key_object_loop_median: Math.round(median(rounds.map((r) => r.sso / workers / r.keyObject)) * 100) / 100,
    // Per core of CPU the service actually got: SSOs per service CPU-second against signatures per CPU-second.
    sso_per_service_cpu_second_median: Math.round(median(rounds.map((r) => r.sso / r.serviceCores))),
    // Both sides per CPU-second, so neither depends on how much of a core the shared machine gave it.
    sso_per_service_cpu_second_vs_key_object_loop_per_cpu_second_median:
      Math.round(median(rounds.map((r) => r.sso / r.serviceCores / r.keyObjectPerCpu)) * 100) / 100,
    key_object_xml_crypto_signs_per_cpu_second_median: Math.round(median(rounds.map((r) => r.keyObjectPerCpu))),
    service_cpu_cores_used_median: Math.round(median(rounds.map((r) => r.serviceCores)) * 100) / 100,
    postgres_cpu_cores_used_median: Math.round(median(rounds.map((r) => r.postgresCores)) * 100) / 100,
    service_cpu_ms_per_sso_median: Math.round(median(rounds.map((r) => (r.serviceCores * 1000) / r.sso)) * 100) / 100,
    postgres_cpu_ms_per_sso_median: Math.round(median(rounds.map((r) => (r.postgresCores * 1000) / r.sso)) * 100) / 100,
    // What every core of the machine would serve if it ran only the service and PostgreSQL at this cost per SSO.
    sso_per_cpu_second_service_and_postgres_median: Math.round(median(rounds.map((r) => r.sso / (r.serviceCores + r.postgresCores)))),
    baseline_xml_crypto_pem_signs_per_s_median: Math.round(median(rounds.map((r) => r.baseline))),
    key_object_xml_crypto_signs_per_s_median: Math.round(median(rounds.map((r) => r.keyObject))),
    bare_rsa_signs_per_s_median: Math.round(median(rounds.map((r) => r.bareRsa))),
    load_average_1m: rounds.map((r) => Math.round(r.load1 * 10) / 10),
    sso_non_2xx: rounds.reduce((n, r) => n + r.non2xx, 0),
    per_round: rounds.map((r) => ({
      baseline: Math.round(r.baseline),
      key_object: Math.round(r.keyObject),
      sso: Math.round(r.sso),
      service_cores: Math.round(r.serviceCores * 100) / 100,
      postgres_cores: Math.round(r.postgresCores * 100) / 100,
      p50_ms: r.p50,
      p99_ms: r.p99,
    })),
  };
}

/** One signed-in browser per connection (distinct users, distinct sessions), through the hosted page. */
async function signedInBrowsers(
  t: TestApp,
  tenant: Awaited<ReturnType<typeof aTenant>>,
  smtp: SmtpReceiver,
  freshPath: () => Promise<string>,
) {
  const cookies: string[] = [];
  for (let i = 0; i < CONNECTIONS; i++) {
    const user = await anEndUser(t, tenant.client, { smtp, firstName: 'Ada' });
    const agent = request.agent(t.baseUrl);
    const start = await agent.get(await freshPath()).expect(302);
    const form = await agent.get(start.headers.location as string).expect(200);
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(form.text)![1];
    const login = await agent
      .post('/auth/login/')
      .type('form')
      .send({ csrf_token: csrf, workspace_id: tenant.ws.id, next: '/saml/sso/finish/', email: user.email, password: user.password })
      .expect(303);
    cookies.push(
      ([] as string[])
        .concat(login.headers['set-cookie'] ?? [])
        .find((c) => c.startsWith('esid='))!
        .split(';')[0],
    );
  }
  return cookies;
}

async function main(): Promise<void> {
  const dbName = 'idsvc_bench_saml';
  await withAdmin((client) => recreateDatabase(client, dbName));
  const smtp = await startSmtpReceiver();
  // Production defaults where the test harness lowers them (pool size); request logs off (they would fill the pipe).
  const env = (workers: number) => ({
    ...samlEnv(),
    RATE_LIMIT_SAML_SSO_PER_MINUTE: '100000000',
    SMTP_URL: smtp.url,
    DATABASE_URL: databaseUrl(dbName),
    DATABASE_POOL_SIZE: '10',
    LOG_LEVEL: 'warn',
    WEB_CONCURRENCY: String(workers),
    // `--cpu-prof`: a V8 profile of each service process (workers too), for bench/profile-summary.ts.
    // (Node refuses --cpu-prof in NODE_OPTIONS: a preloaded inspector session writes it instead.)
    ...(process.argv.includes('--cpu-prof')
      ? { NODE_OPTIONS: `--require ${join(__dirname, 'lib/cpu-profile-preload.js')}`, CPU_PROFILE_DIR: PROFILE_DIR }
      : {}),
  });
  // One process first (the single-process figure), then the default, one worker per core (issue 27), on
  // the same database, users and browser sessions.
  const cores = availableParallelism();
  let app = await spawnApp(env(1));
  try {
    // The factories only need an HTTP client aimed at the service.
    const t = { http: () => request(app.baseUrl), baseUrl: app.baseUrl } as unknown as TestApp;
    const tenant = await aTenant(t);
    const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
    // Each sign-in and each request sends a new AuthnRequest: the IdP answers a request ID once.
    const { path } = await authorizePath(sp, '/dashboard');
    const freshPath = async () => (await authorizePath(sp, '/dashboard')).path;
    const cookies = await signedInBrowsers(t, tenant, smtp, freshPath);
    const check = await request(app.baseUrl)
      .get(await freshPath())
      .set('Cookie', cookies[0])
      .expect(200);
    await sp.saml.validatePostResponseAsync({ SAMLResponse: formFields(check.text).SAMLResponse }); // a real, valid answer
    const setupClient = writeSetupClient(cookies, sp);

    const single = summarizeRounds(await ssoRounds(app.baseUrl, app.child.pid!, path, setupClient, 1, dbName), 1);
    const metadata = await run({ url: `${app.baseUrl}/saml/metadata/`, connections: CONNECTIONS, duration: DURATION_S, workers: 1 });
    await app.stop();
    app = await spawnApp(env(cores));
    const perCore = summarizeRounds(await ssoRounds(app.baseUrl, app.child.pid!, path, setupClient, cores, dbName), cores);

    const samlRequest = new URL(path, 'http://x').searchParams.get('SAMLRequest')!;
    const idp = resolveIdpState(samlEnv());
    if (!idp.configured) throw new Error('bench IdP not configured');
    const { keyPem, certPem } = testIdpKeyPair();
    const pipelineBaseline = baselineLoop(keyPem, certPem, 3000);
    const pipelineKeyObject = keyObjectSignRate(keyPem, certPem, 3000);
    const pipeline = pipelineRate(idp.settings, samlRequest, 3000);
    const results = {
      measured_at: new Date().toISOString(),
      node: process.version,
      cores,
      rounds: ROUNDS,
      warmup_s: WARMUP_S,
      sso_window_s: DURATION_S,
      connections: CONNECTIONS,
      one_worker: single,
      one_worker_per_core: perCore,
      sso_scaling_vs_one_worker:
        Math.round((perCore.sso_signed_in_responses_per_s_median / single.sso_signed_in_responses_per_s_median) * 100) / 100,
      // The same per CPU-second of the service: below 1 when an SSO costs more CPU with more workers.
      sso_per_cpu_second_workers_vs_one:
        Math.round((perCore.sso_per_service_cpu_second_median / single.sso_per_service_cpu_second_median) * 100) / 100,
      // The most the workers can give over one on these cores, whatever else runs: every core serving only the
      // service and PostgreSQL at the cost per SSO measured with the workers (nothing left for the load generator),
      // against one worker given a whole core (its SSOs per service CPU-second) with PostgreSQL on another. Both
      // sides are per CPU-second, so other processes' load moves it little. No worker count goes above it.
      sso_scaling_bound_on_these_cores:
        Math.round(((cores * perCore.sso_per_cpu_second_service_and_postgres_median) / single.sso_per_service_cpu_second_median) * 100) /
        100,
      // The SSO's own parse/build/sign/render on one thread, without HTTP or database, per CPU-second.
      pipeline_in_process_per_cpu_second: Math.round(pipeline.perCpuSecond),
      pipeline_vs_baseline_percent: Math.round((pipeline.perCpuSecond / pipelineBaseline.perCpuSecond) * 100),
      pipeline_vs_key_object_loop: Math.round((pipeline.perCpuSecond / pipelineKeyObject.perCpuSecond) * 100) / 100,
      metadata_requests_per_s: Math.round(metadata.requests.average),
      metadata_latency_ms: { p50: metadata.latency.p50, p90: metadata.latency.p90, p99: metadata.latency.p99 },
      metadata_non_2xx: metadata.non2xx + metadata.errors + metadata.timeouts,
    };
    mkdirSync(join(__dirname, 'results'), { recursive: true });
    writeFileSync(join(__dirname, 'results', 'saml.json'), `${JSON.stringify(results, null, 2)}\n`);
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  } finally {
    await app.stop();
    await smtp.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
