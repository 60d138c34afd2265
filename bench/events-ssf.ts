/**
 * SCIM deactivation to an acknowledged SET at a loopback push receiver, under SCIM write load (issue 37: "p99 ≤ 2 s
 * under 200 SCIM writes/s"), beside the same deactivations with no other load, in the same run.
 *
 *   npx nest build && npx ts-node --transpile-only bench/events-ssf.ts [--rate=200] [--deactivations=10]
 *     [--seconds=20] [--rounds=3] [--max-in-flight=64] [--jobs-concurrency=N] [--no-save]
 *
 * Boots the built service (dist/main.js, production flags, default sealer, fan-out and job intervals) on a fresh
 * database; one workspace with SCIM users seeded by SQL, a receiver registered through the developer API
 * (default_subjects ALL) that gets its token at /oauth/token and opens a push stream (RFC 8935) for
 * `account-disabled` to a receiver on loopback. That receiver verifies each SET (jose, against the service's
 * JWKS, issuer, audience, typ) and answers 202: the SET is acknowledged when the 202 is written.
 * Windows alternate, the order swapped every round:
 * - loaded: `--rate` SCIM writes per second, open loop (sent on schedule, whether or not earlier ones answered,
 *   at most `--max-in-flight` outstanding): `--deactivations` of them per second are `PATCH active=false` of a
 *   user not touched before, the rest alternate `POST /Users` and `PATCH` of a user's name (each an event the
 *   fan-out reads and passes over);
 * - quiet (baseline): the same deactivations per second and nothing else.
 * Latency of a deactivation: from sending its PATCH to the receiver's 202 of its SET. Reported per window: the
 * write rate achieved (2xx answers per second), the SCIM writes' own p50/p99, and the SET latency p50/p99/max.
 * `--jobs-concurrency` starts the service with that JOBS_CONCURRENCY (the job lanes that push SETs; default 4).
 */
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from './lib/api-client';
import { median, percentileOf, replaceBlock, writeResult } from './lib/events-report';
import { pool, recreateDatabase, serverVersion } from './lib/postgres';
import { createDeveloper, createWorkspace, startService } from './lib/service';
import { newUserBody } from './scenarios/scim';

const ROOT = join(__dirname, '..');
const argv = process.argv.slice(2);
const arg = (name: string, fallback: number) => Number(argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const ACCOUNT_DISABLED = 'https://schemas.openid.net/secevent/risc/event-type/account-disabled';
const PUSH = 'urn:ietf:rfc:8935';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

interface Window {
  kind: 'loaded' | 'quiet';
  seconds: number;
  sent: number;
  skipped: number;
  ok: number;
  failed: number;
  writeRate: number;
  writeP50: number;
  writeP99: number;
  deactivations: number;
  setsAcknowledged: number;
  setP50: number;
  setP99: number;
  setMax: number;
  /** From SCIM's 200 for the deactivation (the change acknowledged to the identity provider) to the SET's 202. */
  afterAnswerP50: number;
  afterAnswerP99: number;
  loadAverage: number;
  /** Where a SET's time went, from the service's own rows: the change's commit → the SET made (sealing and fan-out), and made → delivered (the push job). */
  fanOutP50: number;
  fanOutP99: number;
  pushP50: number;
  pushP99: number;
}

async function main(): Promise<void> {
  const rate = arg('rate', 200);
  const deactivationRate = arg('deactivations', 10);
  const seconds = arg('seconds', 20);
  const rounds = arg('rounds', 3);
  const maxInFlight = arg('max-in-flight', 64);
  const save = !argv.includes('--no-save');
  const startedAt = new Date().toISOString();
  const users = Math.ceil(deactivationRate * seconds * (rounds * 2 + 1) * 1.2) + 2000;

  // The push receiver: verifies, then acknowledges; records when each subject's SET was acknowledged.
  let jwks: ReturnType<typeof createLocalJWKSet> | undefined;
  let issuer = '';
  let audience = '';
  const acknowledged = new Map<string, number>();
  let refused = 0;
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const token = Buffer.concat(chunks).toString();
      jwtVerify(token, jwks!, { issuer, audience, typ: 'secevent+jwt' }).then(
        ({ payload }) => {
          const sub = (payload as { sub_id?: { email?: string } }).sub_id;
          res.writeHead(202).end();
          if (sub?.email && !acknowledged.has(sub.email)) acknowledged.set(sub.email, performance.now());
        },
        (err: Error) => {
          refused++;
          res
            .writeHead(400, { 'content-type': 'application/json' })
            .end(JSON.stringify({ err: 'invalid_request', description: err.message }));
        },
      );
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/ssf/events`;

  const url = await recreateDatabase('identity_bench_events_ssf');
  const lanes = argv.find((a) => a.startsWith('--jobs-concurrency='))?.split('=')[1];
  const service = await startService(
    ROOT,
    url,
    { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', LOG_LEVEL: 'warn', ...(lanes ? { JOBS_CONCURRENCY: lanes } : {}) },
    false,
  );
  const db = pool(url);
  try {
    const api = new ApiClient(service.baseUrl);
    const dev = await createDeveloper(api);
    const ws = await createWorkspace(api, dev, 'ssf bench');
    const scim = await api.post<{ token: string }>('/developer/scim/tokens/', {
      headers: dev.authHeaders,
      body: { workspace_id: ws.id, label: 'bench' },
    });
    const scimHeaders = { authorization: `Bearer ${scim.body.token}`, 'content-type': 'application/scim+json' };
    await db.query(
      `INSERT INTO end_users (workspace_id, email, first_name, last_name, is_active, email_verified, created_at, updated_at)
       SELECT $1, 'user' || g || '@bench.example', 'Given' || g, 'Family' || g, true, true, now(), now()
         FROM generate_series(1, $2::int) g`,
      [ws.id, users],
    );
    const seeded = (
      await db.query<{ id: string; email: string }>(
        `SELECT id, email FROM end_users WHERE workspace_id = $1 AND oauth_client_id IS NULL ORDER BY email`,
        [ws.id],
      )
    ).rows;
    const toDeactivate = seeded.slice(0, users - 2000);
    const toRename = seeded.slice(users - 2000);

    const registered = await api.post<{ client_id: string; client_secret: string }>('/developer/ssf/receivers/', {
      headers: dev.authHeaders,
      body: { workspace_id: ws.id, name: 'bench receiver', default_subjects: 'ALL' },
    });
    const basic = Buffer.from(`${registered.body.client_id}:${registered.body.client_secret}`).toString('base64');
    const token = await api.post<{ access_token: string }>('/oauth/token', {
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&scope=ssf',
    });
    const configuration = await api.get<{ issuer: string; jwks_uri: string }>('/.well-known/ssf-configuration');
    issuer = configuration.body.issuer;
    audience = registered.body.client_id;
    jwks = createLocalJWKSet((await (await fetch(configuration.body.jwks_uri)).json()) as JSONWebKeySet);
    await api.post('/ssf/streams', {
      headers: { authorization: `Bearer ${token.body.access_token}` },
      body: {
        delivery: { method: PUSH, endpoint_url: receiverUrl, authorization_header: 'Bearer bench' },
        events_requested: [ACCOUNT_DISABLED],
      },
    });

    const send = async (method: string, path: string, body: string): Promise<number> => {
      const res = await fetch(service.baseUrl + path, { method, headers: scimHeaders, body });
      await res.arrayBuffer();
      return res.status;
    };
    const deactivate = (id: string) =>
      send(
        'PATCH',
        `/scim/v2/Users/${id}`,
        JSON.stringify({ schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] }),
      );
    let renames = 0;
    const background = (i: number) =>
      i % 2 === 0
        ? send('POST', '/scim/v2/Users', newUserBody())
        : send(
            'PATCH',
            `/scim/v2/Users/${toRename[renames++ % toRename.length].id}`,
            JSON.stringify({ schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'name.givenName', value: `G${renames}` }] }),
          );

    /** Each SET joined to its deactivation by the subject it names (the SET's payload decoded in SQL). */
    const lags = async (from: Date, to: Date) => {
      const { rows } = await db.query<Record<'fanOutP50' | 'fanOutP99' | 'pushP50' | 'pushP99', number>>(
        `WITH s AS (
           SELECT created_at, delivered_at,
                  convert_from(decode(rpad(translate(split_part(token, '.', 2), '-_', '+/'),
                    ((length(split_part(token, '.', 2)) + 3) / 4) * 4, '='), 'base64'), 'utf8')::jsonb -> 'sub_id' ->> 'email' AS email
             FROM ssf_sets WHERE workspace_id = $1
         ), l AS (
           SELECT extract(epoch FROM s.created_at - e.occurred_at) * 1000 AS fan_out, extract(epoch FROM s.delivered_at - s.created_at) * 1000 AS push
             FROM directory_events e JOIN s ON s.email = e.data ->> 'userName'
            WHERE e.workspace_id = $1 AND e.type = 'directory.user.deactivated' AND e.occurred_at >= $2 AND e.occurred_at < $3
         )
         SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY fan_out)) AS "fanOutP50",
                round(percentile_cont(0.99) WITHIN GROUP (ORDER BY fan_out)) AS "fanOutP99",
                round(percentile_cont(0.5) WITHIN GROUP (ORDER BY push)) AS "pushP50",
                round(percentile_cont(0.99) WITHIN GROUP (ORDER BY push)) AS "pushP99"
           FROM l`,
        [ws.id, from, to],
      );
      return Object.fromEntries(Object.entries(rows[0]).map(([k, v]) => [k, Number(v)])) as Record<
        'fanOutP50' | 'fanOutP99' | 'pushP50' | 'pushP99',
        number
      >;
    };

    let nextUser = 0;
    const runWindow = async (kind: 'loaded' | 'quiet'): Promise<Window> => {
      const perSecond = kind === 'loaded' ? rate : deactivationRate;
      const every = Math.round(perSecond / deactivationRate);
      const writeTimes: number[] = [];
      const deactivations = new Map<string, number>();
      const answered = new Map<string, number>();
      let sent = 0;
      let skipped = 0;
      let ok = 0;
      let failed = 0;
      let inFlight = 0;
      const pending: Promise<void>[] = [];
      const start = performance.now();
      const wallStart = new Date();
      let lastAnswer = start;
      for (let i = 0; ; i++) {
        const due = start + (i * 1000) / perSecond;
        if (due - start >= seconds * 1000) break;
        const wait = due - performance.now();
        if (wait > 1) await new Promise((r) => setTimeout(r, wait));
        if (inFlight >= maxInFlight) {
          skipped++;
          continue;
        }
        const isDeactivation = i % every === 0;
        const user = isDeactivation ? toDeactivate[nextUser++] : undefined;
        const sentAt = performance.now();
        if (user) deactivations.set(user.email, sentAt);
        inFlight++;
        sent++;
        pending.push(
          (user ? deactivate(user.id) : background(i))
            .then((status) => {
              if (status >= 200 && status < 300) {
                ok++;
                writeTimes.push(performance.now() - sentAt);
                if (user) answered.set(user.email, performance.now());
              } else {
                failed++;
                if (user) deactivations.delete(user.email);
              }
            })
            .catch(() => {
              failed++;
              if (user) deactivations.delete(user.email);
            })
            .finally(() => {
              inFlight--;
              lastAnswer = performance.now();
            }),
        );
      }
      await Promise.all(pending);
      const elapsedSec = (lastAnswer - start) / 1000;
      // Every acknowledged deactivation's SET must arrive (at least once); wait for the stragglers.
      const deadline = performance.now() + 120_000;
      const missing = () => [...deactivations.keys()].filter((email) => !acknowledged.has(email));
      while (missing().length > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      if (missing().length > 0) throw new Error(`${missing().length} deactivations had no SET acknowledged after 120 s`);
      const latencies = [...deactivations].map(([email, at]) => acknowledged.get(email)! - at);
      const afterAnswer = [...answered].map(([email, at]) => acknowledged.get(email)! - at);
      const round = (v: number) => Math.round(v * 10) / 10;
      const split = await lags(wallStart, new Date(Date.now() + 1));
      return {
        kind,
        seconds: round(elapsedSec),
        sent,
        skipped,
        ok,
        failed,
        writeRate: round(ok / elapsedSec),
        writeP50: round(percentileOf(writeTimes, 0.5)),
        writeP99: round(percentileOf(writeTimes, 0.99)),
        deactivations: deactivations.size,
        setsAcknowledged: latencies.length,
        setP50: round(percentileOf(latencies, 0.5)),
        setP99: round(percentileOf(latencies, 0.99)),
        setMax: round(Math.max(...latencies)),
        afterAnswerP50: round(percentileOf(afterAnswer, 0.5)),
        afterAnswerP99: round(percentileOf(afterAnswer, 0.99)),
        loadAverage: Math.round(loadavg()[0] * 10) / 10,
        ...split,
      };
    };

    // Warm-up: a few seconds of the mix, not reported.
    const warm = await runWindow('quiet');
    console.log(`warm-up: ${JSON.stringify(warm)}`);
    const windows: Window[] = [];
    for (let r = 0; r < rounds; r++) {
      const order: ('loaded' | 'quiet')[] = r % 2 === 0 ? ['quiet', 'loaded'] : ['loaded', 'quiet'];
      for (const kind of order) {
        const w = await runWindow(kind);
        windows.push(w);
        console.log(
          `round ${r + 1} ${kind}: ${w.writeRate} writes/s (${w.sent} sent, ${w.skipped} not sent, ${w.failed} failed), ` +
            `write p50 ${w.writeP50} p99 ${w.writeP99} ms; SET ${w.setsAcknowledged}/${w.deactivations}: p50 ${w.setP50} p99 ${w.setP99} max ${w.setMax} ms ` +
            `(after SCIM's answer p50 ${w.afterAnswerP50} p99 ${w.afterAnswerP99}; commit → SET made p50 ${w.fanOutP50} p99 ${w.fanOutP99}; ` +
            `made → pushed p50 ${w.pushP50} p99 ${w.pushP99}); load ${w.loadAverage}`,
        );
      }
    }
    if (refused > 0) throw new Error(`the receiver refused ${refused} SETs that did not verify`);

    const of = (kind: 'loaded' | 'quiet', pick: (w: Window) => number) => median(windows.filter((w) => w.kind === kind).map(pick));
    const FIGURES = [
      'writeRate',
      'writeP99',
      'setP50',
      'setP99',
      'afterAnswerP50',
      'afterAnswerP99',
      'fanOutP50',
      'fanOutP99',
      'pushP50',
      'pushP99',
    ] as const;
    const medians = (kind: 'loaded' | 'quiet') =>
      Object.fromEntries(FIGURES.map((k) => [k, of(kind, (w) => w[k])])) as Record<(typeof FIGURES)[number], number>;
    const summary = { loaded: medians('loaded'), quiet: medians('quiet') };
    console.log(JSON.stringify(summary));
    const command = `npx ts-node --transpile-only bench/events-ssf.ts ${argv.filter((a) => a !== '--no-save').join(' ')}`.trim();
    const ms = (v: number) => (v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${Math.round(v)} ms`);
    const loadedWindows = windows.filter((w) => w.kind === 'loaded');
    const lines = [
      `Measured ${startedAt.slice(0, 16).replace('T', ' ')} UTC with \`${command}\` (Node ${process.versions.node}, PostgreSQL ${await serverVersion()}; load average at the end ${loadavg()
        .map((v) => v.toFixed(1))
        .join(' / ')}, on 2 cores shared with other sessions' test runs).`,
      `Loaded windows: ${rate} SCIM writes/s asked, open loop (${deactivationRate}/s of them deactivations of distinct users, the rest \`POST /Users\` and name \`PATCH\`es alternately); quiet windows (baseline): the same ${deactivationRate} deactivations/s alone. ${rounds} rounds of ${seconds} s windows, the order swapped every round; medians of the windows. A receiver registered with default_subjects ALL, push stream for \`account-disabled\`; the loopback receiver verifies each SET (jose: signature against the JWKS, issuer, audience, typ) before its 202. Latency: the deactivation's PATCH sent → the 202 of its SET.`,
      '',
      '| Window | SCIM writes/s achieved | write p99 | SET p50 | SET p99 | SCIM answer → SET p50 / p99 | commit → SET made p50 / p99 | made → pushed p50 / p99 | target |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---|',
      ...(['quiet', 'loaded'] as const).map((kind) => {
        const m = summary[kind];
        const label = kind === 'quiet' ? `quiet: ${deactivationRate} deactivations/s alone (baseline)` : `loaded: ${rate} writes/s asked`;
        const verdict =
          kind === 'quiet'
            ? ''
            : m.writeRate < rate * 0.95
              ? `p99 ≤ 2 s at 200 writes/s: **not reached** (the machine served ${m.writeRate} writes/s)${m.setP99 > 2000 ? ', and p99 above 2 s at that rate' : ''}`
              : m.setP99 <= 2000
                ? 'p99 ≤ 2 s at 200 writes/s: met'
                : 'p99 ≤ 2 s at 200 writes/s: **missed**';
        return `| ${label} | ${m.writeRate} | ${ms(m.writeP99)} | ${ms(m.setP50)} | **${ms(m.setP99)}** | ${ms(m.afterAnswerP50)} / ${ms(m.afterAnswerP99)} | ${ms(m.fanOutP50)} / ${ms(m.fanOutP99)} | ${ms(m.pushP50)} / ${ms(m.pushP99)} | ${verdict} |`;
      }),
      '',
      `Loaded windows (writes/s achieved, not sent for the in-flight cap, SET p50 / p99 / max): ${loadedWindows.map((w) => `${w.writeRate} (${w.skipped}) ${ms(w.setP50)} / ${ms(w.setP99)} / ${ms(w.setMax)}`).join('; ')}. Every deactivation acknowledged by SCIM had its SET acknowledged.`,
    ];
    if (save) {
      writeResult(ROOT, 'events-ssf', {
        startedAt,
        command,
        settings: { rate, deactivationRate, seconds, rounds, maxInFlight, users },
        summary,
        windows,
      });
      replaceBlock(ROOT, 'events-ssf', lines.join('\n'));
    }
  } finally {
    await db.end();
    await service.server.stop();
    receiver.close();
  }
}

main().catch((err: Error) => {
  console.error(err);
  process.exit(1);
});
