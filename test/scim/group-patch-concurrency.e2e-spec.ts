import { createTestApp, TestApp } from '../support/app';
import { aScimGroup, aScimTenant, aScimUser, PATCH_OP, ScimResource, ScimTenant } from './scim-support';

/**
 * PATCHes of one group at once (decision 0121): membership changes do not queue behind each
 * other or behind a rename in flight, yet no member is lost or duplicated and every change has
 * its audit row; renames follow each other, each audit row naming the name the previous one left.
 */
describe('concurrent group PATCHes', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const addMembers = (tenant: ScimTenant, groupId: string, ids: string[]) =>
    tenant.patch(`/Groups/${groupId}?excludedAttributes=members`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'add', path: 'members', value: ids.map((value) => ({ value })) }],
    });
  /** One member added as Okta and Entra send it (204, one statement: decision 0991). */
  const addOne = (tenant: ScimTenant, groupId: string, id: string) =>
    tenant.patch(`/Groups/${groupId}`, { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: id }] }] });
  const rename = (tenant: ScimTenant, groupId: string, displayName: string) =>
    tenant.patch(`/Groups/${groupId}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'displayName', value: displayName }] });

  type UpdateMetadata = {
    displayName?: string;
    previous_displayName?: string;
    members_added: number;
    members_removed: number;
    actor_label?: string;
  };
  async function groupUpdates(tenant: ScimTenant, groupId: string): Promise<UpdateMetadata[]> {
    const rows = (await t.dataSource.query(
      `SELECT metadata FROM audit_events
        WHERE workspace_id = $1 AND event_type = 'scim_group_update' AND target_id = $2
        ORDER BY created_at`,
      [tenant.ws.id, groupId],
    )) as { metadata: UpdateMetadata }[];
    return rows.map((r) => r.metadata);
  }

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

  /** Runs `work` while another transaction holds an uncommitted rename of the group (its row lock). */
  async function whileRenameInFlight<T>(groupId: string, work: () => Promise<T>): Promise<T> {
    const holder = t.dataSource.createQueryRunner();
    await holder.connect();
    try {
      await holder.startTransaction();
      await holder.query(`UPDATE scim_groups SET display_name = display_name || ' (renaming)', updated_at = now() WHERE id = $1`, [
        groupId,
      ]);
      return await work();
    } finally {
      await holder.rollbackTransaction().catch(() => undefined);
      await holder.release();
    }
  }

  it('20 PATCHes adding members to one group at once: every member present exactly once, every change audited', async () => {
    const tenant = await aScimTenant(t);
    const group = await aScimGroup(tenant, 'Everyone');
    const users: ScimResource[] = [];
    for (let i = 0; i < 21; i++) users.push(await aScimUser(tenant));
    const [shared, ...own] = users;

    // Each PATCH adds its own user and the shared one: twenty concurrent inserts of one member row too.
    const responses = await Promise.all(own.map((u) => addMembers(tenant, group.id, [u.id, shared.id])));
    expect(responses.map((r) => r.status)).toEqual(own.map(() => 200));

    const members = (await tenant.get(`/Groups/${group.id}`).expect(200)).body.members as { value: string }[];
    expect(members).toHaveLength(21);
    expect(new Set(members.map((m) => m.value))).toEqual(new Set(users.map((u) => u.id)));

    const updates = await groupUpdates(tenant, group.id);
    expect(updates).toHaveLength(20);
    expect(updates.every((m) => m.members_removed === 0 && (m.members_added === 1 || m.members_added === 2))).toBe(true);
    expect(updates.reduce((sum, m) => sum + m.members_added, 0)).toBe(21);
  });

  it('20 one-member PATCHes at once, each one statement: every member present once, every change audited once', async () => {
    const tenant = await aScimTenant(t);
    const group = await aScimGroup(tenant, 'Pushed one by one');
    const users: ScimResource[] = [];
    for (let i = 0; i < 20; i++) users.push(await aScimUser(tenant));

    const responses = await Promise.all(users.map((u) => addOne(tenant, group.id, u.id)));
    expect(responses.map((r) => r.status)).toEqual(users.map(() => 204));
    // Sent again, they change nothing: 204 and no audit row.
    const again = await Promise.all(users.slice(0, 5).map((u) => addOne(tenant, group.id, u.id)));
    expect(again.map((r) => r.status)).toEqual([204, 204, 204, 204, 204]);

    const members = (await tenant.get(`/Groups/${group.id}`).expect(200)).body.members as { value: string }[];
    expect(members).toHaveLength(20);
    expect(new Set(members.map((m) => m.value))).toEqual(new Set(users.map((u) => u.id)));
    const updates = await groupUpdates(tenant, group.id);
    expect(updates).toHaveLength(20);
    expect(updates.every((m) => m.members_added === 1 && m.members_removed === 0)).toBe(true);
  });

  it('adds and removes members while a rename of the group is in flight, without waiting for it', async () => {
    const tenant = await aScimTenant(t);
    const [a, b, c] = [await aScimUser(tenant), await aScimUser(tenant), await aScimUser(tenant)];
    const group = await aScimGroup(tenant, 'Sales', [c.id]);
    const before = (await tenant.get(`/Groups/${group.id}`).expect(200)).body.meta.lastModified as string;

    const statuses = await whileRenameInFlight(group.id, async () => {
      // The old design locked the group's row first: these would wait for the holder until the timeout.
      const added = await addMembers(tenant, group.id, [a.id, b.id]).timeout(5_000);
      const removed = await tenant
        .patch(`/Groups/${group.id}?excludedAttributes=members`, {
          schemas: [PATCH_OP],
          Operations: [{ op: 'remove', path: `members[value eq "${c.id}"]` }],
        })
        .timeout(5_000);
      return [added.status, removed.status];
    });
    expect(statuses).toEqual([200, 200]);

    const after = (await tenant.get(`/Groups/${group.id}`).expect(200)).body;
    expect(after.displayName).toBe('Sales');
    expect((after.members as { value: string }[]).map((m) => m.value).sort()).toEqual([a.id, b.id].sort());
    expect(Date.parse(after.meta.lastModified)).toBeGreaterThan(Date.parse(before));
    // Each row also names the SCIM token that made the change by its label (aScimTenant labels it 'idp').
    expect(await groupUpdates(tenant, group.id)).toEqual([
      { members_added: 2, members_removed: 0, actor_label: 'idp' },
      { members_added: 0, members_removed: 1, actor_label: 'idp' },
    ]);
  });

  it('runs renames one after another: each audit row starts from the name the previous one left', async () => {
    const tenant = await aScimTenant(t);
    const user = await aScimUser(tenant);
    const group = await aScimGroup(tenant, 'Engineering');

    let renames: Promise<{ status: number }>[] = [];
    const added = await whileRenameInFlight(group.id, async () => {
      renames = ['Platform', 'Infrastructure'].map((name) => rename(tenant, group.id, name).then((res) => res));
      await lockWaiters(2);
      // A membership change is not held up by the renames queued on the group's row.
      return addMembers(tenant, group.id, [user.id]).timeout(5_000);
    });
    expect(added.status).toBe(200);
    // Without attributes / excludedAttributes a PATCH answers 204 No Content (decision 0133).
    expect((await Promise.all(renames)).map((r) => r.status)).toEqual([204, 204]);

    const names = (await groupUpdates(tenant, group.id)).filter((m) => m.previous_displayName !== undefined);
    expect(names).toHaveLength(2);
    let name = 'Engineering';
    for (const m of names) {
      expect(m.previous_displayName).toBe(name);
      name = m.displayName ?? '';
    }
    const final = await tenant.get(`/Groups/${group.id}`).expect(200);
    expect(final.body).toMatchObject({ displayName: name, members: [{ value: user.id }] });
  });

  /** Deletes the group in a transaction held open while `send` PATCHes it, then commits: the PATCH's answer. */
  async function patchWhileDeleted(groupId: string, send: () => Promise<{ status: number }>) {
    const holder = t.dataSource.createQueryRunner();
    await holder.connect();
    let patch: Promise<{ status: number }>;
    try {
      await holder.startTransaction();
      await holder.query(`DELETE FROM scim_groups WHERE id = $1`, [groupId]);
      patch = send();
      await lockWaiters(1);
      await holder.commitTransaction();
    } finally {
      await holder.release();
    }
    return patch;
  }

  it('answers 404, not 500, when the group is deleted while a PATCH of it is in flight', async () => {
    const tenant = await aScimTenant(t);
    const user = await aScimUser(tenant);
    const group = await aScimGroup(tenant);
    const patch = await patchWhileDeleted(group.id, () => addMembers(tenant, group.id, [user.id]).then((res) => res));
    expect(patch.status).toBe(404);
  });

  it('answers 404, not 500, when the group is deleted while a one-member PATCH of it is in flight', async () => {
    const tenant = await aScimTenant(t);
    const user = await aScimUser(tenant);
    const group = await aScimGroup(tenant);
    const patch = await patchWhileDeleted(group.id, () => addOne(tenant, group.id, user.id).then((res) => res));
    expect(patch.status).toBe(404);
    expect(await groupUpdates(tenant, group.id)).toHaveLength(0);
  });
});
