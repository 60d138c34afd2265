/**
 * Instructions per request, counted by Valgrind's callgrind: unlike CPU time, the count does not move with
 * what else the machine runs, so two builds (or the service and its floor) compare on a loaded shared host.
 *
 *   npx ts-node --transpile-only bench/instructions.ts [--builds=.,/tmp/before] [--requests=2000] [--warmup=3000] [--rounds=2] [--workers=1]
 *
 * Each build's `dist/main.js` runs under callgrind with the Node flags of its `start:prod`, one process
 * (`WEB_CONCURRENCY=1`, or --workers: then callgrind follows the workers too and counts their sum), on
 * its own database holding one workspace of 1,000 users; beside it `bench/lib/bare-row-server.js`
 * (`node:http` + `pg`) reads the same rows. Each server is warmed without instrumentation (`--warmup`
 * requests: the JIT settles), then each round counts `--requests` `GET /scim/v2/Users/{id}` (10 connections)
 * with instrumentation on, every thread of the process included (V8's collector and compiler). Prints
 * instructions per request per round and the ratio service / bare. Slow: valgrind runs Node 20–50× slower.
 */
import autocannon from 'autocannon';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Pool } from 'pg';
import { ApiClient } from './lib/api-client';
import { databaseSuffix, recreateDatabase } from './lib/postgres';
import { freePort, sleep } from './lib/processes';
import { createDeveloper, createWorkspace, productionEnv, productionNodeFlags } from './lib/service';

const USERS = 1000;
const OUT = resolve('bench/results/callgrind');

interface Options {
  builds: string[];
  requests: number;
  warmup: number;
  rounds: number;
  workers: number;
}

function parseOptions(argv: string[]): Options {
  const arg = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  return {
    builds: (arg('builds') ?? '.').split(',').map((b) => resolve(b)),
    requests: Number(arg('requests') ?? 2000),
    warmup: Number(arg('warmup') ?? 3000),
    rounds: Number(arg('rounds') ?? 2),
    workers: Number(arg('workers') ?? 1),
  };
}

/** A process under callgrind, instrumentation off until `count` turns it on. */
class Counted {
  private readonly child: ChildProcess;
  private dumps = 0;
  /** Valgrind names its control pipes after $USER and $HOST: callgrind_control must see the same ones. */
  private readonly controlEnv: NodeJS.ProcessEnv;

  constructor(
    readonly name: string,
    args: string[],
    env: Record<string, string>,
    cwd: string,
    private readonly traceChildren: boolean,
  ) {
    const named = { PATH: process.env.PATH, HOME: process.env.HOME, USER: env.USER, HOST: env.HOST };
    this.controlEnv = Object.fromEntries(Object.entries(named).filter(([, v]) => v !== undefined));
    mkdirSync(OUT, { recursive: true });
    for (const f of readdirSync(OUT)) if (f.startsWith(`${name}.`)) rmSync(join(OUT, f));
    const log = openSync(join(OUT, `${name}.log`), 'w');
    const valgrind = [
      '--tool=callgrind',
      '--instr-atstart=no',
      `--trace-children=${traceChildren ? 'yes' : 'no'}`,
      `--callgrind-out-file=${join(OUT, `${name}.%p.out`)}`,
    ];
    this.child = spawn('valgrind', [...valgrind, process.execPath, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', log, log],
    });
    closeSync(log);
  }

  /** The pids callgrind runs under this server (the process and, with workers, its children). */
  private pids(): number[] {
    const mine = new Set([String(this.child.pid)]);
    const all = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
    let grew = true;
    while (grew) {
      grew = false;
      for (const p of all) {
        if (mine.has(p)) continue;
        try {
          const ppid = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ')[1];
          if (mine.has(ppid)) {
            mine.add(p);
            grew = true;
          }
        } catch {
          // gone
        }
      }
    }
    return [...mine].map(Number).filter((p) => this.traceChildren || p === this.child.pid);
  }

  private control(flag: string): void {
    for (const pid of this.pids()) {
      try {
        execFileSync('callgrind_control', [flag, String(pid)], { stdio: 'ignore', env: this.controlEnv });
      } catch {
        // not a valgrind process (e.g. a shell)
      }
    }
  }

  /** Instructions executed by every counted process while `work` runs. */
  async count(work: () => Promise<void>): Promise<number> {
    this.control('-z');
    this.control('--instr=on');
    await work();
    this.control('--instr=off');
    this.control('--dump');
    this.dumps++;
    // Callgrind writes the dump when the process next runs its scheduler: wait for every counted process's file.
    const expected = this.pids().length;
    for (let waited = 0; waited < 600; waited++) {
      const totals = readdirSync(OUT)
        .filter((f) => f.startsWith(`${this.name}.`) && f.endsWith(`.out.${this.dumps}`))
        .map((f) => /^totals: (\d+)/m.exec(readFileSync(join(OUT, f), 'utf8')));
      if (totals.length >= expected && totals.every((m) => m)) return totals.reduce((sum, m) => sum + Number(m![1]), 0);
      await sleep(500);
    }
    throw new Error(`${this.name}: callgrind wrote no dump`);
  }

  stop(): void {
    this.child.kill('SIGTERM');
  }
}

async function waitReady(url: string, minutes: number): Promise<void> {
  const deadline = Date.now() + minutes * 60_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok || res.status === 404) return;
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
  throw new Error(`${url} not ready within ${minutes} min`);
}

function fire(baseUrl: string, paths: string[], headers: Record<string, string>, amount: number): Promise<void> {
  return new Promise((done, fail) => {
    let non2xx = 0;
    const instance = autocannon(
      { url: baseUrl, connections: 10, amount, requests: paths.map((path) => ({ method: 'GET', path, headers })) },
      (err) => (err ? fail(err) : non2xx > 0 ? fail(new Error(`${non2xx} answers were not 2xx`)) : done()),
    );
    instance.on('response', (_c, status) => {
      if (status < 200 || status >= 300) non2xx++;
    });
  });
}

interface Server {
  name: string;
  counted: Counted;
  baseUrl: string;
  paths: string[];
  headers: Record<string, string>;
}

async function startBuild(root: string, index: number, opts: Options): Promise<Server[]> {
  const dbUrl = await recreateDatabase(`identity_bench_instr_${databaseSuffix(process.cwd())}_${index}`);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const name = `build${index}`;
  const env = {
    ...productionEnv(port),
    DATABASE_URL: dbUrl,
    WEB_CONCURRENCY: String(opts.workers),
    LOG_FILE: join(OUT, `${name}.service.log`),
  };
  const counted = new Counted(name, [...productionNodeFlags(root), join(root, 'dist/main.js')], env, root, opts.workers > 1);
  await waitReady(`${baseUrl}/health/ready`, 15);
  const api = new ApiClient(baseUrl);
  const dev = await createDeveloper(api);
  const ws = await createWorkspace(api, dev, 'instructions');
  const minted = await api.post<{ token: string }>('/developer/scim/tokens/', {
    headers: dev.authHeaders,
    body: { workspace_id: ws.id, label: 'i' },
  });
  const db = new Pool({ connectionString: dbUrl, max: 1 });
  await db.query(
    `INSERT INTO end_users (workspace_id, email, first_name, last_name, is_active, email_verified, created_at, updated_at)
     SELECT $1, 'user' || g || '@bench.example', 'Given' || g, 'Family' || g, true, true, now() - (g || ' seconds')::interval, now()
       FROM generate_series(1, $2::int) g`,
    [ws.id, USERS],
  );
  const { rows } = await db.query<{ id: string }>('SELECT id FROM end_users WHERE workspace_id = $1 ORDER BY random() LIMIT 100', [ws.id]);
  await db.end();
  const ids = rows.map((r) => r.id);
  const barePort = await freePort();
  const bare = new Counted(
    `${name}-bare`,
    [resolve('bench/lib/bare-row-server.js')],
    { PORT: String(barePort), DATABASE_URL: dbUrl, WORKSPACE_ID: ws.id },
    process.cwd(),
    false,
  );
  const bareUrl = `http://127.0.0.1:${barePort}`;
  await waitReady(`${bareUrl}/Users/${ids[0]}`, 5);
  return [
    {
      name: `${root} GET /scim/v2/Users/{id}`,
      counted,
      baseUrl,
      paths: ids.map((id) => `/scim/v2/Users/${id}`),
      headers: { authorization: `Bearer ${minted.body.token}` },
    },
    {
      name: `bare node:http + pg, same rows (beside ${root})`,
      counted: bare,
      baseUrl: bareUrl,
      paths: ids.map((id) => `/Users/${id}`),
      headers: {},
    },
  ];
}

async function main(): Promise<void> {
  const opts = parseOptions(process.argv.slice(2));
  const servers: Server[] = [];
  try {
    for (const [i, root] of opts.builds.entries()) servers.push(...(await startBuild(root, i, opts)));
    for (const s of servers) await fire(s.baseUrl, s.paths, s.headers, opts.warmup);
    const perRequest = new Map<string, number[]>();
    for (let round = 1; round <= opts.rounds; round++) {
      for (const s of servers) {
        const instructions = await s.counted.count(() => fire(s.baseUrl, s.paths, s.headers, opts.requests));
        const each = Math.round(instructions / opts.requests);
        perRequest.set(s.name, [...(perRequest.get(s.name) ?? []), each]);
        console.log(`round ${round}: ${s.name}: ${(each / 1e6).toFixed(3)} M instructions per request`);
      }
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    for (let i = 0; i < servers.length; i += 2) {
      const [svc, bare] = [mean(perRequest.get(servers[i].name)!), mean(perRequest.get(servers[i + 1].name)!)];
      console.log(
        `${servers[i].name}: ${(svc / 1e6).toFixed(3)} M/request, ${(svc / bare).toFixed(2)}× the bare read (${(bare / 1e6).toFixed(3)} M)`,
      );
    }
  } finally {
    for (const s of servers) s.counted.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
