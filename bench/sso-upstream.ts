/**
 * Enterprise SSO benchmark (BENCHMARKS.md, "Enterprise SSO connections"): the service CPU of a sign-in
 * through an OIDC upstream and through a SAML upstream beside a password sign-in on the hosted login,
 * in the same run.
 *   npx nest build && npx ts-node --transpile-only bench/sso-upstream.ts [--cpu-prof]
 * Needs the local Postgres and Redis. The upstreams run on loopback and their own CPU is not the
 * service's and is not counted: panva's oidc-provider in a child process
 * (test/sso-connections/support/upstream-op.ts), and a samlify IdP served by this process
 * (test/sso-connections/support/upstream-saml-idp.ts). Each sign-in is a fresh browser (cookie jar):
 *  - password: GET /auth/login/ (form, CSRF cookie), POST /auth/login/ → 303 with the session cookie;
 *  - oidc: GET /auth/sso/{id}/ → the OP's authorize, its login form, its resume → GET our callback
 *    (code exchange at the OP's token endpoint, the ID token checked against its JWKS, the binding, the
 *    session) → 303 with the session cookie;
 *  - saml: GET /auth/sso/{id}/ (AuthnRequest over HTTP-Redirect, the sso_saml cookie) → the IdP's SSO
 *    URL, whose page carries a signed Response → POST our ACS (schema, signature, conditions,
 *    InResponseTo, the assertion ID spent, the binding, the session) → 303 with the session cookie.
 * Windows alternate (password, oidc, saml) so all see the same background load; the figure is the
 * service's CPU (user + system of its process tree, /proc) per sign-in, the password one less the CPU of
 * a bare argon2id verify measured here with the service's parameters (one short window per round).
 *   BENCH_ROUNDS (3), BENCH_WINDOW_SECONDS (5), BENCH_CONNECTIONS (4), BENCH_SIDES (password,oidc,saml: a
 *   profile of one side alone, e.g. BENCH_SIDES=oidc with --cpu-prof; the ratios need password)
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import * as argon2 from 'argon2';
import { Client } from 'pg';
import request from 'supertest';
import { ARGON2_OPTIONS } from '../src/common/crypto/password-hasher';
import { databaseUrl, recreateDatabase, withAdmin } from '../test/support/databases';
import type { TestApp } from '../test/support/app';
import { anOidcTenant, provision } from '../test/sso-connections/support/oidc-tenant';
import { UpstreamOp } from '../test/sso-connections/support/upstream-op';
import { serveSamlIdp, UpstreamSamlIdp } from '../test/sso-connections/support/upstream-saml-idp';
import { backendCpuSeconds } from './lib/proc';
import { startService } from './lib/service';

const DB = 'idsvc_bench_sso_upstream';
const ROOT = join(__dirname, '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WINDOW_SECONDS = Number(process.env.BENCH_WINDOW_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const SIDES = (process.env.BENCH_SIDES ?? 'password,oidc,saml').split(',');
const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

/** A browser's cookies, for one sign-in (the service and the OP share 127.0.0.1; their names differ). */
class Jar {
  private readonly cookies = new Map<string, string>();
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }
  has(name: string): boolean {
    return Boolean(this.cookies.get(name));
  }
}

async function go(jar: Jar, url: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(url, {
    ...init,
    redirect: 'manual',
    headers: { ...(init.headers as Record<string, string>), cookie: jar.header() },
  });
  jar.take(res);
  return res;
}

function locationOf(res: Response, base: string): string {
  const location = res.headers.get('location');
  if (!location) throw new Error(`expected a redirect, got ${res.status} from ${res.url}`);
  return new URL(location, base).href;
}

async function passwordSignIn(base: string, clientId: string, email: string, password: string): Promise<void> {
  const jar = new Jar();
  const form = await go(jar, `${base}/auth/login/?client_id=${clientId}`);
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(await form.text())?.[1];
  if (!csrf) throw new Error(`no login form: ${form.status}`);
  const res = await go(jar, `${base}/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: clientId, csrf_token: csrf, next: '/', email, password }).toString(),
  });
  if (res.status !== 303 || !jar.has('esid')) {
    throw new Error(`password sign-in failed: ${res.status} ${(await res.text()).replace(/<[^>]+>/g, ' ').slice(0, 400)}`);
  }
}

async function upstreamSignIn(base: string, op: UpstreamOp, connectionId: string, sub: string, password: string): Promise<void> {
  const jar = new Jar();
  const started = await go(jar, `${base}/auth/sso/${connectionId}/?next=/`);
  const authorize = await go(jar, locationOf(started, base));
  const form = locationOf(authorize, op.issuer);
  const posted = await go(jar, form, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: sub, password }).toString(),
  });
  const resumed = await go(jar, locationOf(posted, op.issuer));
  const callback = locationOf(resumed, op.issuer);
  if (!callback.startsWith(base)) throw new Error(`the OP did not answer to us: ${callback}`);
  const res = await go(jar, callback);
  if (res.status !== 303 || !jar.has('esid')) throw new Error(`upstream sign-in failed: ${res.status} ${(await res.text()).slice(0, 300)}`);
}

/** The IdP's page: the form its script would submit (the signed Response and RelayState, to our ACS). */
function formOf(html: string): { action: string; fields: Record<string, string> } {
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`the IdP answered no form: ${html.slice(0, 200)}`);
  const fields: Record<string, string> = {};
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[name] = value
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>');
  }
  return { action: action.replace(/&amp;/g, '&'), fields };
}

async function samlSignIn(base: string, connectionId: string): Promise<void> {
  const jar = new Jar();
  const started = await go(jar, `${base}/auth/sso/${connectionId}/?next=/`);
  const page = await go(jar, locationOf(started, base));
  if (page.status !== 200) throw new Error(`the IdP answered ${page.status}`);
  const { action, fields } = formOf(await page.text());
  if (!action.startsWith(base)) throw new Error(`the IdP did not answer to us: ${action}`);
  const res = await go(jar, action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  if (res.status !== 303 || !jar.has('esid')) throw new Error(`SAML sign-in failed: ${res.status} ${(await res.text()).slice(0, 300)}`);
}

/** `connections` loops of `signIn` for `seconds`; answers how many completed. */
async function window(seconds: number, connections: number, signIn: () => Promise<void>): Promise<number> {
  const until = Date.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < until) {
        await signIn();
        done++;
      }
    }),
  );
  return done;
}

/** CPU-ms of one argon2id verify with the service's parameters (single thread, this process). */
async function argon2CpuMs(seconds: number): Promise<number> {
  const hash = await argon2.hash('bench password 123', ARGON2_OPTIONS);
  const before = process.cpuUsage();
  const until = Date.now() + seconds * 1000;
  let done = 0;
  while (Date.now() < until) {
    await argon2.verify(hash, 'bench password 123');
    done++;
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / done;
}

type Side = 'password' | 'oidc' | 'saml';

async function main(): Promise<void> {
  await withAdmin((c) => recreateDatabase(c, DB));
  const op = await UpstreamOp.start();
  let samlConnection: { sp_entity_id: string; acs_url: string } | undefined;
  const served = await serveSamlIdp(
    (ssoUrl) => new UpstreamSamlIdp(undefined, ssoUrl),
    () => ({ entityId: samlConnection!.sp_entity_id, acsUrl: samlConnection!.acs_url }),
  );
  const { server, baseUrl } = await startService(
    ROOT,
    databaseUrl(DB),
    {
      LOG_LEVEL: 'silent',
      OAUTH_JWKS_ALLOW_PRIVATE_TARGETS: 'true',
      RATE_LIMIT_AUTH_PER_MINUTE: '100000000',
      RATE_LIMIT_ACCOUNT_PER_MINUTE: '100000000',
      WEB_CONCURRENCY: '1',
    },
    process.argv.includes('--cpu-prof'),
  );
  try {
    const t = { http: () => request(baseUrl) } as unknown as TestApp;
    const tenant = await anOidcTenant(t, op.issuer);
    await op.registerClient({ client_id: tenant.clientId, client_secret: tenant.clientSecret, redirect_uris: [tenant.redirectUri] });
    const password = `bench-${randomBytes(8).toString('hex')}`;
    const ssoEmail = `sso.${randomBytes(4).toString('hex')}@acme.example`;
    await provision(tenant, ssoEmail);
    const sub = `00u${randomBytes(6).toString('hex')}`;
    await op.setAccount(sub, { password, email: ssoEmail, email_verified: true, given_name: 'Ada', family_name: 'Lovelace' });

    // The SAML connection of the same workspace, and its own provisioned person (persistent NameID).
    const samlIdp = served.idp;
    const created = await request(baseUrl)
      .post('/developer/external-providers/')
      .set(tenant.dev.auth)
      .send({
        workspace_id: tenant.ws.id,
        name: 'Acme SAML IdP',
        protocol: 'saml',
        saml: { idp_entity_id: samlIdp.entityId, idp_sso_url: served.ssoUrl, idp_certificates: [samlIdp.keys.certPem] },
      });
    if (created.status !== 201) throw new Error(`SAML connection create failed: ${created.status} ${JSON.stringify(created.body)}`);
    samlConnection = created.body as { id: string; sp_entity_id: string; acs_url: string };
    const samlConnectionId = created.body.id as string;
    const samlEmail = `saml.${randomBytes(4).toString('hex')}@acme.example`;
    await provision(tenant, samlEmail);
    served.person = { subject: `okta-${randomBytes(6).toString('hex')}`, email: samlEmail, firstName: 'Ada', lastName: 'Lovelace' };

    const userEmail = `pw.${randomBytes(4).toString('hex')}@bench.test`;
    const registered = await request(baseUrl)
      .post('/e/v1/auth/register/')
      .send({ client_id: tenant.app.client_id, email: userEmail, password, first_name: 'Ada' });
    if (registered.status !== 201) throw new Error(`register failed: ${registered.status}`);
    // The hosted login asks for a verified email; the bench has no mailbox (bench/oidc.ts does the same).
    const db = new Client({ connectionString: databaseUrl(DB) });
    await db.connect();
    await db.query('UPDATE end_users SET email_verified = true WHERE id = $1', [String(registered.body.id)]);
    await db.end();

    const sides = (
      [
        ['password', () => passwordSignIn(baseUrl, tenant.app.client_id, userEmail, password)],
        ['oidc', () => upstreamSignIn(baseUrl, op, tenant.connectionId, sub, password)],
        ['saml', () => samlSignIn(baseUrl, samlConnectionId)],
      ] as [Side, () => Promise<void>][]
    ).filter(([side]) => SIDES.includes(side));
    // Warm every path (JIT, caches, the first binding) before measuring.
    for (const [, signIn] of sides) await window(2, 2, signIn);

    type Tally = { n: number; cpu: number; db: number };
    const tally = () => Object.fromEntries(sides.map(([side]) => [side, { n: 0, cpu: 0, db: 0 }])) as Record<Side, Tally>;
    const totals = tally();
    // Each round's own figures too: the password one without argon2 is the difference of two noisy numbers.
    const rounds: { sides: Record<Side, Tally>; hashMs: number }[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      // The bare verify is measured in every round too, so that it sees the load the sign-ins saw.
      const thisRound = { sides: tally(), hashMs: await argon2CpuMs(2) };
      for (const [side, signIn] of sides) {
        const [cpu, db] = [server.cpuSeconds(), await backendCpuSeconds(DB)];
        const n = await window(WINDOW_SECONDS, CONNECTIONS, signIn);
        const spent = { n, cpu: server.cpuSeconds() - cpu, db: (await backendCpuSeconds(DB)) - db };
        thisRound.sides[side] = spent;
        totals[side] = { n: totals[side].n + spent.n, cpu: totals[side].cpu + spent.cpu, db: totals[side].db + spent.db };
      }
      rounds.push(thisRound);
    }
    const hashMs = rounds.reduce((a, b) => a + b.hashMs, 0) / rounds.length;
    const per = (t: Tally) => ({
      serviceMs: (1000 * t.cpu) / t.n,
      postgresMs: (1000 * t.db) / t.n,
      perSecond: t.n / (ROUNDS * WINDOW_SECONDS),
    });
    console.log(`load average ${round(loadavg()[0], 1)}; ${ROUNDS} rounds of ${WINDOW_SECONDS} s windows, ${CONNECTIONS} connections`);
    const measured = sides.map(([side]) => side);
    const pwWithoutHash = measured.includes('password') ? per(totals.password).serviceMs - hashMs : NaN;
    if (measured.includes('password')) {
      const pw = per(totals.password);
      console.log(
        `password sign-in: ${round(pw.perSecond, 1)}/s, service CPU ${round(pw.serviceMs)} ms (argon2id verify ${round(hashMs)} ms → ${round(pwWithoutHash)} ms without it), PostgreSQL ${round(pw.postgresMs)} ms`,
      );
    }
    for (const side of (['oidc', 'saml'] as const).filter((s) => measured.includes(s))) {
      const up = per(totals[side]);
      console.log(
        `${side} upstream sign-in: ${round(up.perSecond, 1)}/s, service CPU ${round(up.serviceMs)} ms, PostgreSQL ${round(up.postgresMs)} ms; ` +
          `/ password, argon2 excluded: ${round(up.serviceMs / pwWithoutHash)}× (target ≤ 1.5×)`,
      );
    }
    rounds.forEach((r, i) => {
      const ms = (side: Side) => per(r.sides[side]).serviceMs;
      const pw = measured.includes('password') ? ms('password') - r.hashMs : NaN;
      const parts = measured.map((side) =>
        side === 'password'
          ? `password ${round(ms(side))} − verify ${round(r.hashMs)} = ${round(pw)} ms`
          : `${side} ${round(ms(side))} ms (${round(ms(side) / pw)}×)`,
      );
      console.log(`round ${i + 1}: ${parts.join(', ')}`);
    });
  } finally {
    await server.stop();
    await op.stop();
    await served.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
