import { createTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { aScimTenant, aUserName, ERROR_SCHEMA, GROUP_SCHEMA, userBody } from './scim-support';

/**
 * A SCIM create authenticated a moment before its workspace is deleted (issue 13, item 14). The
 * test holds the workspace row (FOR UPDATE) so the create's foreign-key check waits on it,
 * deletes the workspace in that same transaction and commits: the create then finds its
 * workspace gone, as it would in a real race. The client must hear 401 (the token went with
 * the workspace), never a 500.
 */
describe('SCIM create racing the deletion of its workspace', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  /** Until the create's INSERT (alone, or inside the statement that also writes its audit row) waits on the held row. */
  async function waitForBlockedInsert(table: string): Promise<void> {
    await eventually(
      async () => {
        const rows = (await t.dataSource.query(
          `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE $1 AND datname = current_database()`,
          [`%INSERT INTO ${table}%`],
        )) as unknown[];
        if (rows.length === 0) throw new Error(`no INSERT INTO ${table} waited on the workspace row`);
      },
      { timeoutMs: 5_000 },
    );
  }

  it.each([
    ['/Users', 'end_users', () => userBody(aUserName())],
    ['/Groups', 'scim_groups', () => ({ schemas: [GROUP_SCHEMA], displayName: 'Racing' })],
  ])('POST %s answers 401, not 500, and stores nothing', async (path, table, body) => {
    const s = await aScimTenant(t);
    await s.get('/Users').expect(200); // the token is valid and cached
    const holder = t.dataSource.createQueryRunner();
    await holder.connect();
    try {
      await holder.startTransaction();
      await holder.query('SELECT id FROM workspaces WHERE id = $1 FOR UPDATE', [s.ws.id]);
      const pending = s.post(path, body()).then((r) => r);
      await waitForBlockedInsert(table);
      await holder.query('DELETE FROM workspaces WHERE id = $1', [s.ws.id]);
      await holder.commitTransaction();
      const res = await pending;
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: '401' });
      expect(res.body.detail).toMatch(/revoked/);
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    }
    const [{ n }] = (await t.dataSource.query(`SELECT count(*)::int AS n FROM ${table} WHERE workspace_id = $1`, [s.ws.id])) as {
      n: number;
    }[];
    expect(n).toBe(0);
  });
});
