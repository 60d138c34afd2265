/**
 * Issue 38: our SAML IdP's SSO beside Debian's SimpleSAMLphp in one run: a browser already signed in at each IdP
 * sends a new AuthnRequest of the same SP (fresh ID and IssueInstant every time) and gets the page that posts the
 * signed Response to the SP's ACS. Each side in its own windows, interleaved (ABBA), several rounds.
 *
 *   npx nest build && npx ts-node --transpile-only bench/saml-peers.ts [--rounds=6] [--duration=5] [--warmup=30]
 *       [--connections=10] [--workers=N] [--browsers=20] [--peer-signs=both] [--no-build] [--cpu-prof] [--no-save]
 *
 * SimpleSAMLphp is not a project dependency (not run in CI): install it with
 *   apt-get install -y simplesamlphp apache2 libapache2-mod-php
 * (bench/peers/simplesamlphp.ts: Apache prefork + mod_php with Debian's defaults, configured in a temp directory).
 *
 * Ours: `node dist/main.js` as `npm run start:prod` runs it, with its default worker count (`--workers=N` sets
 * WEB_CONCURRENCY), the `sso` scenario of bench/ab.ts (one browser signed in through the hosted login page, the SP
 * registered with its defaults: the Assertion signed, emailAddress NameID). Theirs: the same SP (entity ID, ACS URL,
 * NameID format, Assertion signed and not the Response, RSA-SHA256 with the same key pair, the same attributes), its
 * exampleauth user signed in through its login page in `--browsers` browsers: PHP's file sessions lock a session for
 * the length of a request, so one browser would serialise its requests (a real IdP serves many browsers; our side
 * has no such lock). Before measuring, one Response of each IdP is checked by node-saml as the SP (signature, audience,
 * InResponseTo). `--peer-signs=both` has SimpleSAMLphp sign the Response too, as it does by default (two signatures).
 *
 * CPU per SSO of every process of each IdP, from /proc: ours, the service's process tree plus the PostgreSQL
 * backends serving its database; theirs, Apache's process tree (with the children it reaped). Redis (the rate
 * limits' counters) is not counted. "× SimpleSAMLphp" is their CPU per SSO over ours (above 1: ours is cheaper),
 * per round and median of the rounds; req/s likewise ours over theirs.
 *
 * --cpu-prof writes the service's V8 profiles to bench/results/profiles/service-<time>/ (bench/profile-summary.ts).
 * Writes bench/results/saml-peers.json and the "SSO beside SimpleSAMLphp" block of BENCHMARKS.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { craftedRequest } from '../test/saml/support/saml-sso.helpers';
import { samlEnv, testIdpKeyPair } from '../test/saml/support/saml-env';
import { startSmtpReceiver } from '../test/support/smtp-receiver';
import { measure } from './lib/load';
import { databaseSuffix, recreateDatabase } from './lib/postgres';
import { treeCpuSeconds, treePssMb, treeRssMb } from './lib/proc';
import { writeBlock } from './lib/report';
import { buildService, startService } from './lib/service';
import { signedInBrowser } from './lib/sso-seed';
import type { BenchRequest, Measurement } from './lib/types';
import { missingSimpleSamlPhp, SimpleSamlPhp, startSimpleSamlPhp } from './peers/simplesamlphp';
import { acquireLock, freePort, numberArg, RunFacts, runFacts } from './scim/harness';

const ROOT = resolve(__dirname, '..');
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const OPTS = {
  rounds: numberArg('rounds', 6),
  durationSec: numberArg('duration', 5),
  warmupSec: numberArg('warmup', 30),
  connections: numberArg('connections', 10),
  browsers: numberArg('browsers', 20),
  workers: arg('workers') ?? 'default',
  /** What SimpleSAMLphp signs: the Assertion, as ours does (default), or 'both', its own default. */
  peerSigns: (arg('peer-signs') === 'both' ? 'both' : 'assertion') as 'assertion' | 'both',
};
const CPU_PROF = process.argv.includes('--cpu-prof');
const SAVE = !process.argv.includes('--no-save') && !CPU_PROF;
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const log = (m: string) => console.log(`[bench:saml-peers] ${m}`);

/** What a window is measured on: a process tree (with its peak memory) and, for ours, PostgreSQL's backends. */
interface Side {
  name: 'ours' | 'SimpleSAMLphp';
  baseUrl: string;
  requests: BenchRequest[];
  server: { cpuSeconds(): number; sampleRss(): () => number; samplePss(): () => number };
  /** CPU seconds of the database backends serving this side so far (0 for a side without a database). */
  dbCpuSeconds(): Promise<number>;
}

interface SideWindow {
  m: Measurement;
  dbCpuSec: number;
}

interface Figures {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  serverCpuMs: number;
  dbCpuMs: number;
  totalCpuMs: number;
  peakPssMb: number;
  requests: number;
  non2xx: number;
}

async function window(side: Side, durationSec: number): Promise<SideWindow> {
  const db0 = await side.dbCpuSeconds();
  const m = await measure(side.server, side.baseUrl, side.requests, { durationSec, warmupSec: 0, connections: OPTS.connections });
  return { m, dbCpuSec: (await side.dbCpuSeconds()) - db0 };
}

/** CPU ms per SSO of a window: the server's and the database's, over every answer (2xx or not). */
const serverMs = (w: SideWindow) => w.m.cpuMsPerRequest;
const dbMs = (w: SideWindow) => (w.dbCpuSec * 1000) / Math.max(1, w.m.totalRequests);
const totalMs = (w: SideWindow) => serverMs(w) + dbMs(w);

function figures(windows: SideWindow[]): Figures {
  const requests = windows.reduce((a, w) => a + w.m.totalRequests, 0);
  const weighted = (f: (w: SideWindow) => number) => windows.reduce((a, w) => a + f(w) * w.m.totalRequests, 0) / Math.max(1, requests);
  const seconds = windows.reduce((a, w) => a + w.m.durationSec, 0);
  const ok = windows.reduce((a, w) => a + w.m.totalRequests - w.m.non2xx, 0);
  const round3 = (n: number) => Math.round(n * 1000) / 1000;
  return {
    requestsPerSec: Math.round((ok / seconds) * 10) / 10,
    p50Ms: median(windows.map((w) => w.m.p50Ms)),
    p99Ms: median(windows.map((w) => w.m.p99Ms)),
    serverCpuMs: round3(weighted(serverMs)),
    dbCpuMs: round3(weighted(dbMs)),
    totalCpuMs: round3(weighted(totalMs)),
    peakPssMb: Math.round(Math.max(...windows.map((w) => w.m.pssMb ?? 0))),
    requests,
    non2xx: windows.reduce((a, w) => a + w.m.non2xx, 0),
  };
}

/** The AuthnRequest query of the SP (as the `sso` scenario sends it: a fresh ID and IssueInstant, the ACS URL, RelayState). */
function authnRequestQuery(entityId: string, acsUrl: string, id?: string): string {
  const path = craftedRequest(entityId, { acsUrl, ...(id ? { id } : {}) });
  return `${path.slice(path.indexOf('?') + 1)}&RelayState=%2Fdashboard`;
}

/** A browser's cookies, kept across the redirects of a sign-in. */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      const value = pair.slice(eq + 1);
      if (value === 'deleted' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(pair.slice(0, eq));
      else this.cookies.set(pair.slice(0, eq), value);
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/**
 * One browser signed in at SimpleSAMLphp: the SSO request, its login page, the password, and the redirects back,
 * until the page that posts the Response; the browser's cookies (SimpleSAMLSessionID, SimpleSAMLAuthToken).
 */
async function signInAtSimpleSamlPhp(
  ssp: SimpleSamlPhp,
  sp: { entityId: string; acsUrl: string },
  user: { username: string; password: string },
) {
  const jar = new CookieJar();
  const get = async (url: string, init: RequestInit = {}) => {
    const res = await fetch(new URL(url, ssp.baseUrl), {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: jar.header() },
    });
    jar.take(res);
    return res;
  };
  let res = await get(`${ssp.ssoPath}?${authnRequestQuery(sp.entityId, sp.acsUrl)}`);
  for (let hops = 0; res.status >= 300 && res.status < 400 && hops < 5; hops++) res = await get(res.headers.get('location')!);
  const loginUrl = res.url;
  const page = await res.text();
  const authState = /name="AuthState" value="([^"]+)"/.exec(page)?.[1];
  if (res.status !== 200 || !authState) throw new Error(`SimpleSAMLphp's login page: ${res.status} ${page.slice(0, 400)}`);
  res = await get(loginUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ AuthState: decodeHtml(authState), username: user.username, password: user.password }).toString(),
  });
  for (let hops = 0; res.status >= 300 && res.status < 400 && hops < 5; hops++) res = await get(res.headers.get('location')!);
  const done = await res.text();
  if (res.status !== 200 || !done.includes('SAMLResponse')) {
    throw new Error(`SimpleSAMLphp's sign-in ended in ${res.status}: ${done.slice(0, 400)}`);
  }
  return jar.header();
}

/** The SAMLResponse of an auto-post page, decoded. */
function responseOf(html: string): string {
  const value = /name="SAMLResponse" value="([^"]+)"/.exec(html)?.[1];
  if (!value) throw new Error(`no SAMLResponse in the page: ${html.slice(0, 300)}`);
  return Buffer.from(decodeHtml(value), 'base64').toString('utf8');
}

function decodeHtml(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The attributes of an Assertion, by name (what the peer's test user is given, so both assert the same). */
function attributesOf(xml: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const m of xml.matchAll(/<saml:Attribute Name="([^"]+)"[^>]*>(.*?)<\/saml:Attribute>/g)) {
    out[m[1]] = [...m[2].matchAll(/<saml:AttributeValue[^>]*>([^<]*)<\/saml:AttributeValue>/g)].map((v) => decodeHtml(v[1]));
  }
  return out;
}

async function main(): Promise<void> {
  const missing = missingSimpleSamlPhp();
  if (missing) {
    console.error(`[bench:saml-peers] ${missing}`);
    process.exit(2);
  }
  await acquireLock(log);
  if (!process.argv.includes('--no-build')) {
    log('building the service');
    await buildService(ROOT);
  }
  const database = `identity_bench_saml_peers_${databaseSuffix(process.cwd())}`;
  const databaseUrl = await recreateDatabase(database);
  const smtp = await startSmtpReceiver();
  const env = {
    ...samlEnv(),
    SMTP_URL: smtp.url,
    // As bench/ab.ts: the per-IP limits never bind (one load generator, one address), still counted per request.
    RATE_LIMIT_AUTH_PER_MINUTE: '100000000',
    RATE_LIMIT_ACCOUNT_PER_MINUTE: '100000000',
    RATE_LIMIT_SAML_SSO_PER_MINUTE: '100000000',
    ...(OPTS.workers === 'default' ? {} : { WEB_CONCURRENCY: OPTS.workers }),
  };
  const service = await startService(ROOT, databaseUrl, env, CPU_PROF);
  const admin = new Client({ connectionString: databaseUrl });
  await admin.connect();
  let ssp: SimpleSamlPhp | undefined;
  try {
    const browser = await signedInBrowser(service.baseUrl, smtp);
    const { sp } = browser;
    // Our Response first: its attributes are what the peer's user is given.
    const oursProbeId = `_${randomUUID().replace(/-/g, '')}`;
    const oursPage = await fetch(`${service.baseUrl}/saml/sso/?${authnRequestQuery(sp.entityId, sp.acsUrl, oursProbeId)}`, {
      headers: { cookie: browser.cookie },
    });
    const oursXml = responseOf(await oursPage.text());
    const user = { username: 'ada', password: randomBytes(12).toString('hex'), attributes: attributesOf(oursXml) };
    const keys = testIdpKeyPair();
    ssp = await startSimpleSamlPhp({
      port: await freePort(),
      keyPem: keys.keyPem,
      certPem: keys.certPem,
      sp: { entityId: sp.entityId, acsUrl: sp.acsUrl, nameIdFormat: EMAIL_FORMAT },
      user,
      logDir: join(ROOT, 'bench/results/logs'),
      signs: OPTS.peerSigns,
    });
    log(`SimpleSAMLphp on ${ssp.baseUrl} (Apache ${ssp.pid}, config in ${ssp.dir}); signing in ${OPTS.browsers} browsers`);
    const cookies: string[] = [];
    for (let i = 0; i < OPTS.browsers; i++) cookies.push(await signInAtSimpleSamlPhp(ssp, sp, user));

    // The same SP accepts both: one Response of each, checked by node-saml (signature by the one key, audience, InResponseTo).
    const theirProbeId = `_${randomUUID().replace(/-/g, '')}`;
    const theirPage = await fetch(`${ssp.baseUrl}${ssp.ssoPath}?${authnRequestQuery(sp.entityId, sp.acsUrl, theirProbeId)}`, {
      headers: { cookie: cookies[0] },
    });
    const theirXml = responseOf(await theirPage.text());
    for (const [name, id, xml] of [
      ['ours', oursProbeId, oursXml],
      ['SimpleSAMLphp', theirProbeId, theirXml],
    ] as const) {
      sp.cache.ids.set(id, new Date().toISOString());
      const { profile } = await sp.saml.validatePostResponseAsync({ SAMLResponse: Buffer.from(xml).toString('base64') });
      if (profile?.nameID !== browser.user.email && name === 'ours') throw new Error(`ours asserted ${profile?.nameID}`);
      log(`${name}: the SP accepted the Response (NameID ${profile?.nameID}, ${Object.keys(attributesOf(xml)).join(', ')})`);
    }

    const fresh = () => `${ssp!.ssoPath}?${authnRequestQuery(sp.entityId, sp.acsUrl)}`;
    let nextBrowser = 0;
    const apachePid = ssp.pid;
    const sides: [Side, Side] = [
      {
        name: 'ours',
        baseUrl: service.baseUrl,
        requests: browser.requests,
        server: service.server,
        dbCpuSeconds: async () => {
          const { rows } = await admin.query<{ pid: number }>(
            'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
            [database],
          );
          return rows.reduce((sum, r) => sum + treeCpuSeconds(r.pid), 0);
        },
      },
      {
        name: 'SimpleSAMLphp',
        baseUrl: ssp.baseUrl,
        requests: [
          {
            path: fresh(),
            newPath: fresh,
            headers: { cookie: cookies[0] },
            newHeaders: () => ({ cookie: cookies[nextBrowser++ % cookies.length] }),
          },
        ],
        server: {
          cpuSeconds: () => ssp!.cpuSeconds(),
          sampleRss: () => peakSampler(() => treeRssMb(apachePid), 250),
          samplePss: () => peakSampler(() => treePssMb(apachePid), 1000),
        },
        dbCpuSeconds: async () => 0,
      },
    ];
    log(`warming each side for ${OPTS.warmupSec} s`);
    for (const side of sides) {
      const w = await window(side, OPTS.warmupSec);
      if (w.m.non2xx > 0 || w.m.totalRequests === 0) {
        throw new Error(`${side.name}: ${w.m.non2xx} non-2xx of ${w.m.totalRequests} in the warm-up`);
      }
    }
    const windows: [SideWindow[], SideWindow[]] = [[], []];
    const cpuRounds: number[] = [];
    const rateRounds: number[] = [];
    for (let r = 0; r < OPTS.rounds; r++) {
      const order = r % 2 === 0 ? [0, 1] : [1, 0];
      const round: SideWindow[] = [];
      for (const i of order) {
        const w = await window(sides[i], OPTS.durationSec);
        if (w.m.non2xx + w.m.errors > 0) log(`${sides[i].name}: ${w.m.non2xx} non-2xx, ${w.m.errors} errors of ${w.m.totalRequests}`);
        windows[i].push(w);
        round[i] = w;
      }
      cpuRounds.push(Math.round((totalMs(round[1]) / totalMs(round[0])) * 100) / 100);
      rateRounds.push(Math.round((round[0].m.requestsPerSec / round[1].m.requestsPerSec) * 100) / 100);
      log(
        `round ${r + 1}: ours ${Math.round(round[0].m.requestsPerSec)} SSO/s, ${serverMs(round[0]).toFixed(2)} + ${dbMs(round[0]).toFixed(2)} ms CPU; ` +
          `SimpleSAMLphp ${Math.round(round[1].m.requestsPerSec)} SSO/s, ${serverMs(round[1]).toFixed(2)} ms CPU; ` +
          `x SimpleSAMLphp: CPU ${cpuRounds[r]}, req/s ${rateRounds[r]}`,
      );
    }
    const ours = figures(windows[0]);
    const theirs = figures(windows[1]);
    const result = {
      ours,
      theirs,
      cpuRatio: median(cpuRounds),
      cpuRatioRounds: cpuRounds,
      rateRatio: median(rateRounds),
      rateRatioRounds: rateRounds,
    };
    log(
      `SSO: ours ${ours.requestsPerSec}/s, ${ours.serverCpuMs} + ${ours.dbCpuMs} ms CPU (service + PostgreSQL); SimpleSAMLphp ` +
        `${theirs.requestsPerSec}/s, ${theirs.serverCpuMs} ms; x SimpleSAMLphp: CPU ${result.cpuRatio} (rounds ${cpuRounds.join(', ')}), ` +
        `req/s ${result.rateRatio} (rounds ${rateRounds.join(', ')})`,
    );
    if (!SAVE) return;
    const report = { area: 'saml-peers', ...runFacts('bench/saml-peers.ts'), options: OPTS, result };
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench/results/saml-peers.json'), `${JSON.stringify(report, null, 2)}\n`);
    writeBlock(join(ROOT, 'BENCHMARKS.md'), START, END, render(report));
    log('wrote bench/results/saml-peers.json and its block of BENCHMARKS.md');
  } finally {
    await admin.end();
    await service.server.stop();
    await ssp?.stop();
    await smtp.stop();
  }
}

function peakSampler(read: () => number, everyMs: number): () => number {
  let peak = read();
  const timer = setInterval(() => (peak = Math.max(peak, read())), everyMs);
  return () => {
    clearInterval(timer);
    return Math.max(peak, read());
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : Math.round(((sorted[mid - 1] + sorted[mid]) / 2) * 100) / 100;
}

const START = '<!-- saml-peers:start (generated by bench/saml-peers.ts) -->';
const END = '<!-- saml-peers:end -->';

function render(
  r: RunFacts & {
    options: typeof OPTS;
    result: { ours: Figures; theirs: Figures; cpuRatio: number; cpuRatioRounds: number[]; rateRatio: number; rateRatioRounds: number[] };
  },
): string {
  const row = (side: string, f: Figures) =>
    `| ${side} | ${f.requestsPerSec} | ${f.p50Ms} | ${f.p99Ms} | ${f.serverCpuMs} | ${f.dbCpuMs} | ${f.totalCpuMs} | ${f.peakPssMb} | ${f.non2xx} |`;
  const { result: x } = r;
  return [
    `Run ${r.ranAt} on ${r.machine.cpus} × ${r.machine.model ?? 'cpu'} (load ${r.machine.loadAverage.join(' / ')}), \`${r.command}\`: ` +
      `${r.options.rounds} rounds of ${r.options.durationSec} s per side, ABBA, after ${r.options.warmupSec} s of warm-up each; ` +
      `${r.options.connections} connections; our workers: ${r.options.workers}; SimpleSAMLphp: ${r.options.browsers} signed-in browsers, ` +
      `signing ${r.options.peerSigns === 'both' ? 'the Response and the Assertion (its default)' : 'the Assertion only (as ours)'}.`,
    '',
    '| IdP: SSO of a signed-in browser | SSO/s | p50 ms | p99 ms | server CPU ms/SSO | PostgreSQL CPU ms/SSO | total CPU ms/SSO | peak PSS MB | non-2xx |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    row('ours: `GET /saml/sso/` (service + its PostgreSQL backends)', x.ours),
    row("SimpleSAMLphp: `GET /simplesaml/saml2/idp/SSOService.php` (Apache's processes)", x.theirs),
    '',
    `- SimpleSAMLphp's CPU per SSO / ours = **${x.cpuRatio}×** (median of rounds ${x.cpuRatioRounds.join(', ')}; above 1: ours is cheaper).`,
    `- Our SSO/s / theirs = **${x.rateRatio}×** (rounds ${x.rateRatioRounds.join(', ')}).`,
  ].join('\n');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
