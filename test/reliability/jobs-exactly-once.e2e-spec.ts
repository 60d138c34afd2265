import { JobsService } from '../../src/jobs/jobs.service';
import { createTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';

/** Two instances' workers compete for the same queue: every job runs exactly once. */
describe('durable jobs across instances', () => {
  let a: TestApp;
  let b: TestApp;
  const queue = `test.exactly-once.${Date.now()}`;

  beforeAll(async () => {
    a = await createTestApp({ JOBS_POLL_INTERVAL_MS: '20' });
    b = await createTestApp({ JOBS_POLL_INTERVAL_MS: '20' });
    await a.dataSource.query(`CREATE TABLE IF NOT EXISTS test_job_runs (job_id uuid, instance text, n int)`);
    for (const [name, t] of [
      ['a', a],
      ['b', b],
    ] as const) {
      t.get<JobsService>(JobsService).registerHandler(queue, async (payload, ctx) => {
        await t.dataSource.query(`INSERT INTO test_job_runs (job_id, instance, n) VALUES ($1, $2, $3)`, [ctx.jobId, name, payload.n]);
      });
    }
  });
  afterAll(async () => {
    await a.dataSource.query(`DROP TABLE IF EXISTS test_job_runs`);
    await Promise.all([a.close(), b.close()]);
  });

  it('runs 300 jobs exactly once each when both workers compete', async () => {
    await a.dataSource.transaction(async (manager) => {
      for (let n = 0; n < 300; n++) await a.get<JobsService>(JobsService).enqueue(manager, queue, { n });
    });
    await eventually(
      async () => {
        const [{ pending }] = (await a.dataSource.query(
          `SELECT count(*)::int AS pending FROM jobs WHERE queue = $1 AND status <> 'completed'`,
          [queue],
        )) as { pending: number }[];
        expect(pending).toBe(0);
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    const runs = (await a.dataSource.query(`SELECT n, instance FROM test_job_runs`)) as { n: number; instance: string }[];
    expect(runs).toHaveLength(300);
    expect(new Set(runs.map((r) => r.n)).size).toBe(300);
    expect(new Set(runs.map((r) => r.instance))).toEqual(new Set(['a', 'b']));
  }, 60000);

  it('takes over a job whose worker died (lease expired) and completes it once', async () => {
    const [{ id }] = (await a.dataSource.query(
      `INSERT INTO jobs (queue, payload, status, attempts, locked_until, locked_by) VALUES ($1, '{"n": 1000}', 'running', 1, now() - interval '1 second', 'dead-worker') RETURNING id`,
      [queue],
    )) as { id: string }[];
    await eventually(
      async () => {
        const [job] = (await a.dataSource.query(`SELECT status FROM jobs WHERE id = $1`, [id])) as { status: string }[];
        expect(job.status).toBe('completed');
      },
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    const runs = (await a.dataSource.query(`SELECT count(*)::int AS c FROM test_job_runs WHERE job_id = $1`, [id])) as { c: number }[];
    expect(runs[0].c).toBe(1);
  }, 30000);
});
