import { createTestApp, TestApp } from '../support/app';
import { aScimGroup, aScimTenant, aScimUser, PATCH_OP } from './scim-support';

/**
 * Two PATCHes of one group at once (a rename, a member added): they run one after the other,
 * and each audit row describes the group as that PATCH found it. The group row is held locked
 * from the test while both requests arrive, so both are in flight together every time.
 */
describe('concurrent group PATCHes', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  /** Until `n` backends of this database wait for a lock (5 s at most). */
  async function lockWaiters(n: number): Promise<void> {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const [{ waiting }] = (await t.dataSource.query(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      )) as { waiting: number }[];
      if (waiting >= n) return;
      if (Date.now() > deadline) throw new Error(`${waiting} of ${n} requests reached the group's lock within 5 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('writes audit rows whose displayName and previous_displayName follow the order the changes committed in', async () => {
    const tenant = await aScimTenant(t);
    const user = await aScimUser(tenant);
    const group = await aScimGroup(tenant, 'Engineering');

    const holder = t.dataSource.createQueryRunner();
    await holder.connect();
    let rename: Promise<{ status: number }>;
    let addMember: Promise<{ status: number }>;
    try {
      await holder.startTransaction();
      await holder.query(`SELECT id FROM scim_groups WHERE id = $1 FOR UPDATE`, [group.id]);
      rename = tenant
        .patch(`/Groups/${group.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'displayName', value: 'Platform' }] })
        .then((res) => res);
      await lockWaiters(1);
      addMember = tenant
        .patch(`/Groups/${group.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: user.id }] }] })
        .then((res) => res);
      await lockWaiters(2);
    } finally {
      await holder.rollbackTransaction().catch(() => undefined);
      await holder.release();
    }
    expect((await rename).status).toBe(200);
    expect((await addMember).status).toBe(200);

    const rows = (await t.dataSource.query(
      `SELECT metadata FROM audit_events
        WHERE workspace_id = $1 AND event_type = 'scim_group_update' AND target_id = $2
        ORDER BY created_at`,
      [tenant.ws.id, group.id],
    )) as { metadata: { displayName: string; previous_displayName?: string; members_added: number; members_removed: number } }[];
    expect(rows).toHaveLength(2);
    // Replayed in commit order, each row starts from the name the previous one left.
    let name = 'Engineering';
    for (const { metadata } of rows) {
      if (metadata.previous_displayName !== undefined) expect(metadata.previous_displayName).toBe(name);
      else expect(metadata.displayName).toBe(name);
      name = metadata.displayName;
    }
    expect(rows.map((r) => r.metadata)).toEqual(
      expect.arrayContaining([
        { displayName: 'Platform', previous_displayName: 'Engineering', members_added: 0, members_removed: 0 },
        { displayName: expect.any(String), members_added: 1, members_removed: 0 },
      ]),
    );
    const final = await tenant.get(`/Groups/${group.id}`).expect(200);
    expect(final.body).toMatchObject({ displayName: 'Platform', members: [{ value: user.id }] });
  });
});
