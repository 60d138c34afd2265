import { createTestApp, TestApp } from '../support/app';
import { aScimGroup, aScimTenant, PATCH_OP, ScimTenant } from './scim-support';

/** One PATCH with 1,000 member additions or removals (issue 26): all or nothing. Its time is measured in bench/scim-oauth.ts. */
describe('SCIM group PATCH with 1,000 members', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  async function thousandUsers(tenant: ScimTenant): Promise<string[]> {
    const rows = (await t.dataSource.query(
      `INSERT INTO end_users (workspace_id, email, first_name, last_name, is_active, email_verified)
       SELECT $1, 'm' || g || '@bulk.example', 'G', 'F', true, true FROM generate_series(1, 1000) g RETURNING id`,
      [tenant.ws.id],
    )) as { id: string }[];
    return rows.map((r) => r.id);
  }

  const memberCount = async (groupId: string) =>
    ((await t.dataSource.query(`SELECT count(*)::int AS n FROM scim_group_members WHERE group_id = $1`, [groupId])) as { n: number }[])[0]
      .n;
  const members = (ids: string[]) => ids.map((value) => ({ value }));

  it('adds 1,000 members in one PATCH, and removes them in one, each audited once', async () => {
    const tenant = await aScimTenant(t);
    const ids = await thousandUsers(tenant);
    const group = await aScimGroup(tenant);
    await tenant
      .patch(`/Groups/${group.id}?excludedAttributes=members`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'add', path: 'members', value: members(ids) }],
      })
      .expect(200);
    expect(await memberCount(group.id)).toBe(1000);
    const read = await tenant.get(`/Groups/${group.id}`).expect(200);
    expect(new Set(read.body.members.map((m: { value: string }) => m.value))).toEqual(new Set(ids));
    await tenant
      .patch(`/Groups/${group.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'remove', path: 'members', value: members(ids) }] })
      .expect(204, '');
    expect(await memberCount(group.id)).toBe(0);
    const audit = (await t.dataSource.query(
      `SELECT metadata->'members_added' AS added, metadata->'members_removed' AS removed FROM audit_events
        WHERE target_id = $1 AND event_type = 'scim_group_update' ORDER BY created_at`,
      [group.id],
    )) as { added: unknown; removed: unknown }[];
    expect(audit).toHaveLength(2);
  });

  it('applies nothing when a later operation of the same PATCH fails', async () => {
    const tenant = await aScimTenant(t);
    const ids = await thousandUsers(tenant);
    const taken = await aScimGroup(tenant);
    const group = await aScimGroup(tenant, undefined, ids.slice(0, 500));
    const res = await tenant
      .patch(`/Groups/${group.id}`, {
        schemas: [PATCH_OP],
        Operations: [
          { op: 'add', path: 'members', value: members(ids.slice(500)) },
          { op: 'remove', path: 'members', value: members(ids.slice(0, 500)) },
          { op: 'replace', path: 'displayName', value: taken.displayName },
        ],
      })
      .expect(409);
    expect(res.body.scimType).toBe('uniqueness');
    const [{ n, first }] = (await t.dataSource.query(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE user_id = ANY($2::uuid[]))::int AS first FROM scim_group_members WHERE group_id = $1`,
      [group.id, ids.slice(0, 500)],
    )) as { n: number; first: number }[];
    expect({ n, first }).toEqual({ n: 500, first: 500 });
    const bad = await tenant
      .patch(`/Groups/${group.id}`, {
        schemas: [PATCH_OP],
        Operations: [
          { op: 'add', path: 'members', value: members(ids.slice(500)) },
          { op: 'remove', path: 'displayName' },
        ],
      })
      .expect(400);
    expect(bad.body.scimType).toBe('mutability');
    expect(await memberCount(group.id)).toBe(500);
  });
});
