/**
 * End-user sign-in benchmark (BENCHMARKS.md, "End users").
 *   npm run build && npx ts-node --transpile-only bench/end-users.ts
 * Needs the local Postgres and Redis. Measures, in one run on this machine:
 *  1. argon2id verifications per second on all cores (same parameters as the service) - the ceiling;
 *  2. sign-ins per second through POST /e/v1/auth/login/ under a flood, as a share of that ceiling;
 *  3. GET /health/live latency, idle and during the flood (hashing must not starve other endpoints);
 *  4. POST /e/v1/email/verify/ latency with real emailed codes;
 *  5. unknown-email vs wrong-password login time (should be alike).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import * as argon2 from 'argon2';
import autocannon from 'autocannon';
import request from 'supertest';
import { ARGON2_OPTIONS } from '../src/common/crypto/password-hasher';
import { databaseUrl, recreateDatabase, withAdmin } from '../test/support/databases';
import { aDeveloper, anOAuthClient, aWorkspace } from '../test/support/factories';
import type { TestApp } from '../test/support/app';
import { codeIn, startSmtpReceiver } from '../test/support/smtp-receiver';
import { startService } from './lib/service';
import { backendCpuSeconds } from './lib/proc';

const DB = 'idsvc_bench_endusers';
const ROOT = join(__dirname, '..');
let BASE = '';
const FLOOD_SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const VERIFY_USERS = Number(process.env.BENCH_VERIFY_USERS ?? 300);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const WINDOW_SECONDS = Number(process.env.BENCH_WINDOW_SECONDS ?? 4);

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

async function argon2Ceiling(seconds: number, concurrency: number): Promise<number> {
  const hash = await argon2.hash('bench password 123', ARGON2_OPTIONS);
  const until = Date.now() + seconds * 1000;
  let done = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < until) {
        await argon2.verify(hash, 'bench password 123');
        done++;
      }
    }),
  );
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  return done / elapsed;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

async function main(): Promise<void> {
  await withAdmin((c) => recreateDatabase(c, DB));
  const smtp = await startSmtpReceiver();
  // The built service as production runs it: dist/main.js, one worker per core (issue 27), so the
  // flood meets every core the argon2 ceiling uses.
  const { server, baseUrl } = await startService(
    ROOT,
    databaseUrl(DB),
    {
      LOG_LEVEL: 'silent',
      SMTP_URL: smtp.url,
      JOBS_POLL_INTERVAL_MS: '100',
      RATE_LIMIT_AUTH_PER_MINUTE: '100000000',
      RATE_LIMIT_ACCOUNT_PER_MINUTE: '100000000',
    },
    process.argv.includes('--cpu-prof'),
  );
  BASE = baseUrl;
  try {
    const t = { http: () => request(BASE) } as unknown as TestApp;
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const client = await anOAuthClient(t, dev, ws, 'Bench App');
    const login = { client_id: client.client_id, email: 'flood@bench.test', password: 'flood password 123' };
    await request(BASE).post('/e/v1/auth/register/').send(login).expect(201);

    console.log(`cores: ${availableParallelism()} (${cpus()[0]?.model ?? '?'})`);
    // The machine is shared, and the load around us moves: alternate short argon2-only and
    // login-flood windows and compare the totals, so both rates see the same background.
    const body = JSON.stringify(login);
    const flood = (seconds: number) =>
      autocannon({
        url: `${BASE}/e/v1/auth/login/`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        connections: 16,
        duration: seconds,
      });
    let hashCount = 0;
    let hashSeconds = 0;
    let signIns = 0;
    let signInSeconds = 0;
    let failures = 0;
    // CPU as well as wall time: on a machine shared with other work the wall-clock rates follow what the
    // scheduler gives each side, while CPU per operation says what a sign-in costs beside a bare hash.
    let hashCpu = 0;
    let signInCpu = 0;
    let signInDbCpu = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const cpuBefore = process.cpuUsage();
      const rate = await argon2Ceiling(WINDOW_SECONDS, availableParallelism());
      const used = process.cpuUsage(cpuBefore);
      hashCpu += (used.user + used.system) / 1e6;
      hashCount += rate * WINDOW_SECONDS;
      hashSeconds += WINDOW_SECONDS;
      const [serviceBefore, dbBefore] = [server.cpuSeconds(), await backendCpuSeconds(DB)];
      const r = await flood(WINDOW_SECONDS);
      signInCpu += server.cpuSeconds() - serviceBefore;
      signInDbCpu += (await backendCpuSeconds(DB)) - dbBefore;
      signIns += r.requests.total - r.non2xx;
      failures += r.non2xx + r.errors;
      signInSeconds += WINDOW_SECONDS;
    }
    const hashCpuMs = (1000 * hashCpu) / hashCount;
    const signInCpuMs = (1000 * signInCpu) / signIns;
    const signInDbCpuMs = (1000 * signInDbCpu) / signIns;
    const ceiling = hashCount / hashSeconds;
    const signInsPerSecond = signIns / signInSeconds;
    console.log(`argon2id verifies/s on ${availableParallelism()} cores: ${round(ceiling)} (${ROUNDS} windows of ${WINDOW_SECONDS} s)`);
    console.log(
      `sign-ins/s: ${round(signInsPerSecond)} (${round((100 * signInsPerSecond) / ceiling)}% of the argon2 ceiling), failures ${failures}, load average ${round(loadavg()[0])}`,
    );
    console.log(
      `CPU per operation: bare argon2id verify ${round(hashCpuMs)} ms; sign-in ${round(signInCpuMs)} ms in the service + ${round(signInDbCpuMs)} ms in PostgreSQL ` +
        `(a sign-in costs ${round((100 * hashCpuMs) / (signInCpuMs + signInDbCpuMs))}% of its CPU in the hash: the ceiling on CPU alone)`,
    );

    // Liveness while a flood saturates the hasher.
    const healthIdle = await autocannon({ url: `${BASE}/health/live`, connections: 2, duration: 5, overallRate: 100 });
    const [longFlood, healthFlood] = await Promise.all([
      flood(FLOOD_SECONDS),
      autocannon({ url: `${BASE}/health/live`, connections: 2, duration: FLOOD_SECONDS, overallRate: 100 }),
    ]);
    console.log(
      `login latency under flood p50 ${longFlood.latency.p50} ms p99 ${longFlood.latency.p99} ms (${round(longFlood.requests.total / FLOOD_SECONDS)}/s)`,
    );
    console.log(`/health/live p99: idle ${healthIdle.latency.p99} ms, during flood ${healthFlood.latency.p99} ms`);

    // Timing parity: unknown email vs wrong password, sequential, interleaved.
    const unknown: number[] = [];
    const wrong: number[] = [];
    for (let i = 0; i < 40; i++) {
      unknown.push(
        await timed(() =>
          request(BASE)
            .post('/e/v1/auth/login/')
            .send({ ...login, email: `nobody${i}@bench.test`, password: 'x' }),
        ),
      );
      wrong.push(
        await timed(() =>
          request(BASE)
            .post('/e/v1/auth/login/')
            .send({ ...login, password: 'x' }),
        ),
      );
    }
    console.log(`login failure median: unknown email ${round(pct(unknown, 50))} ms, wrong password ${round(pct(wrong, 50))} ms`);

    // Verify-code latency with real codes read from the received mail.
    const emails = Array.from({ length: VERIFY_USERS }, (_, i) => `verify${i}@bench.test`);
    for (let i = 0; i < emails.length; i += 10) {
      await Promise.all(
        emails
          .slice(i, i + 10)
          .map((email) =>
            request(BASE)
              .post('/e/v1/auth/register/')
              .send({ client_id: client.client_id, email, password: 'verify password 123' })
              .expect(201),
          ),
      );
    }
    const codes = await Promise.all(emails.map(async (email) => codeIn(await smtp.waitFor(email, { timeoutMs: 120_000 }))));
    const verifyLatencies: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < emails.length) {
          const i = next++;
          verifyLatencies.push(
            await timed(() => request(BASE).post('/e/v1/email/verify/').send({ email: emails[i], code: codes[i] }).expect(200)),
          );
        }
      }),
    );
    console.log(
      `verify-code (8 concurrent, ${emails.length} real codes): p50 ${round(pct(verifyLatencies, 50))} ms, p99 ${round(pct(verifyLatencies, 99))} ms`,
    );

    const results = {
      measured_at: new Date().toISOString(),
      machine: {
        cores: availableParallelism(),
        cpu: cpus()[0]?.model ?? null,
        node: process.version,
        load_average_1m: round(loadavg()[0], 2),
      },
      argon2: {
        params: {
          type: 'argon2id',
          memoryCost: ARGON2_OPTIONS.memoryCost,
          timeCost: ARGON2_OPTIONS.timeCost,
          parallelism: ARGON2_OPTIONS.parallelism,
        },
        verifies_per_second: round(ceiling),
        concurrency: availableParallelism(),
      },
      sign_ins: {
        windows: ROUNDS,
        window_seconds: WINDOW_SECONDS,
        connections: 16,
        sign_ins_per_second: round(signInsPerSecond),
        share_of_argon2_ceiling: round(signInsPerSecond / ceiling, 3),
        cpu_ms_per_bare_argon2_verify: round(hashCpuMs, 2),
        cpu_ms_per_sign_in_service: round(signInCpuMs, 2),
        cpu_ms_per_sign_in_postgres: round(signInDbCpuMs, 2),
        hash_share_of_sign_in_cpu: round(hashCpuMs / (signInCpuMs + signInDbCpuMs), 3),
        failures,
      },
      login_flood: {
        seconds: FLOOD_SECONDS,
        sign_ins_per_second: round(longFlood.requests.total / FLOOD_SECONDS),
        latency_ms: { p50: longFlood.latency.p50, p99: longFlood.latency.p99 },
        non_2xx: longFlood.non2xx,
        errors: longFlood.errors,
      },
      health_live_p99_ms: { idle: healthIdle.latency.p99, during_login_flood: healthFlood.latency.p99 },
      login_failure_median_ms: { unknown_email: round(pct(unknown, 50)), wrong_password: round(pct(wrong, 50)) },
      verify_code_ms: {
        concurrency: 8,
        requests: verifyLatencies.length,
        p50: round(pct(verifyLatencies, 50)),
        p99: round(pct(verifyLatencies, 99)),
      },
    };
    mkdirSync(join(__dirname, 'results'), { recursive: true });
    writeFileSync(join(__dirname, 'results', 'end-users.json'), `${JSON.stringify(results, null, 2)}\n`);
    console.log('written bench/results/end-users.json');
  } finally {
    await server.stop();
    await smtp.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
