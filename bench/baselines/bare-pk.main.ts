/**
 * Baseline "bare-pk": the floor of a database read on this machine — `node:http` and `pg`, no
 * framework, one primary-key SELECT through a pool of 10, as JSON. It forks one worker per core,
 * as the service does by default (BASELINE_WORKERS to change it), so a scenario measured against
 * it compares two servers that use the same cores (issue 27: GET /Users/{id} ≥ 0.7× of it).
 */
import cluster from 'node:cluster';
import { createServer } from 'node:http';
import { availableParallelism } from 'node:os';
import { Pool } from 'pg';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function serve(): void {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  createServer((req, res) => {
    const id = (req.url ?? '').slice('/items/'.length);
    if (!UUID.test(id)) {
      res.writeHead(404).end();
      return;
    }
    pool.query({ name: 'item', text: 'SELECT id, name, value, created_at FROM bench_item WHERE id = $1', values: [id] }).then(
      ({ rows }) => {
        if (rows.length === 0) return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(rows[0]));
      },
      () => res.writeHead(500).end(),
    );
  }).listen(Number(process.env.PORT), '127.0.0.1');
}

if (cluster.isPrimary) {
  const workers = Number(process.env.BASELINE_WORKERS) || availableParallelism();
  for (let i = 0; i < workers; i++) cluster.fork();
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    process.exit(0);
  });
} else {
  serve();
}
