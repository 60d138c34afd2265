import { createTestApp, TestApp } from '../support/app';
import { anOAuthClient } from '../support/factories';
import { aScimGroup, aScimTenant, aScimUser, ScimTenant } from './scim-support';

/**
 * Pages anywhere in a large workspace (decision 0122): exact totalResults (RFC 7644 §3.4.2), the
 * same rows an OFFSET over the creation order gives, and a count that stays exact through every
 * way a SCIM user comes and goes.
 */
describe('SCIM paging', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const USERS = 3_000;

  async function seed(tenant: ScimTenant, n: number, label: string): Promise<void> {
    await t.dataSource.query(
      `INSERT INTO end_users (workspace_id, email, first_name, last_name, is_active, email_verified, created_at)
       SELECT $1, $3 || g || '@paging.example', 'G', 'F', true, true, now() - (g % 500 || ' seconds')::interval FROM generate_series(1, $2::int) g`,
      [tenant.ws.id, n, label],
    );
  }

  async function expectedIds(workspaceId: string, offset: number, limit: number): Promise<string[]> {
    const rows = (await t.dataSource.query(
      `SELECT id FROM end_users WHERE workspace_id = $1 AND oauth_client_id IS NULL ORDER BY created_at, id OFFSET $2 LIMIT $3`,
      [workspaceId, offset, limit],
    )) as { id: string }[];
    return rows.map((r) => r.id);
  }

  async function scimUserCount(workspaceId: string): Promise<number> {
    const [{ n }] = (await t.dataSource.query(
      `SELECT count(*)::int AS n FROM end_users WHERE workspace_id = $1 AND oauth_client_id IS NULL`,
      [workspaceId],
    )) as { n: number }[];
    return n;
  }

  const total = async (tenant: ScimTenant) => (await tenant.get('/Users?count=1').expect(200)).body.totalResults as number;

  it('answers any page of 3,000 users with the rows of that offset and the exact total', async () => {
    const tenant = await aScimTenant(t);
    const other = await aScimTenant(t);
    await seed(tenant, USERS, 'a');
    await seed(other, 500, 'b'); // another workspace's users are neither counted nor listed
    // Users of an OAuth client in the same workspace are not SCIM users.
    const client = await anOAuthClient(t, tenant.dev, tenant.ws);
    await t.dataSource.query(
      `INSERT INTO end_users (workspace_id, oauth_client_id, email, first_name, last_name, is_active, email_verified)
       SELECT $1, $2, 'c' || g || '@paging.example', 'G', 'F', true, true FROM generate_series(1, 40) g`,
      [tenant.ws.id, client.id],
    );
    for (const startIndex of [1, 2, 1_234, 2_951, 2_999, 3_000, 3_001, 10_000]) {
      const res = await tenant.get(`/Users?startIndex=${startIndex}&count=50`).expect(200);
      expect(res.body).toMatchObject({ totalResults: USERS, startIndex });
      expect(res.body.Resources.map((r: { id: string }) => r.id)).toEqual(await expectedIds(tenant.ws.id, startIndex - 1, 50));
      expect(res.body.itemsPerPage).toBe(res.body.Resources.length);
    }
  });

  it('keeps the total exact through creates, deletes, users leaving an OAuth client, a deleted client and a deleted workspace', async () => {
    const tenant = await aScimTenant(t);
    await seed(tenant, 100, 'd');
    const created = await Promise.all(Array.from({ length: 10 }, () => aScimUser(tenant)));
    expect(await total(tenant)).toBe(110);
    // DELETE /Users/{id} deactivates: the user is still listed.
    await Promise.all(created.slice(0, 2).map((u) => tenant.delete(`/Users/${u.id}`).expect(204)));
    expect(await total(tenant)).toBe(110);
    await t.dataSource.query(`DELETE FROM end_users WHERE id = ANY($1::uuid[])`, [created.slice(0, 4).map((u) => u.id)]);
    expect(await total(tenant)).toBe(106);

    const client = await anOAuthClient(t, tenant.dev, tenant.ws);
    await t.dataSource.query(
      `INSERT INTO end_users (workspace_id, oauth_client_id, email, first_name, last_name, is_active, email_verified)
       SELECT $1, $2, 'e' || g || '@paging.example', 'G', 'F', true, true FROM generate_series(1, 7) g`,
      [tenant.ws.id, client.id],
    );
    expect(await total(tenant)).toBe(106);
    // Users leaving their client become directory users; deleting the client deletes the rest (ON DELETE CASCADE).
    await t.dataSource.query(
      `UPDATE end_users SET oauth_client_id = NULL WHERE id IN (SELECT id FROM end_users WHERE oauth_client_id = $1 LIMIT 3)`,
      [client.id],
    );
    expect(await total(tenant)).toBe(109);
    await t.dataSource.query(`DELETE FROM oauth_clients WHERE id = $1`, [client.id]);
    expect(await total(tenant)).toBe(109);
    expect(await total(tenant)).toBe(await scimUserCount(tenant.ws.id));

    // Deleting the workspace deletes its users and its counter rows (the triggers skip a workspace being deleted).
    await t.http().delete(`/e/v1/developer/workspaces/${tenant.ws.id}/`).set(tenant.dev.auth).expect(204);
    const [{ rows }] = (await t.dataSource.query(`SELECT count(*)::int AS rows FROM scim_user_counts WHERE workspace_id = $1`, [
      tenant.ws.id,
    ])) as { rows: number }[];
    expect(rows).toBe(0);
  });

  it('skips to a deep page on the index alone: an index-only scan, no heap row read for the skipped users', async () => {
    const tenant = await aScimTenant(t);
    await seed(tenant, USERS, 'f');
    await t.dataSource.query('VACUUM (ANALYZE) end_users');
    const [{ 'QUERY PLAN': plan }] = (await t.dataSource.query(
      `EXPLAIN (ANALYZE, FORMAT JSON)
       SELECT u.id FROM end_users u
         JOIN (SELECT u.id FROM end_users u
                WHERE u.workspace_id = $1 AND COALESCE(u.oauth_client_id, '00000000-0000-0000-0000-000000000000'::uuid) = '00000000-0000-0000-0000-000000000000'::uuid
                ORDER BY u.created_at, u.id LIMIT 50 OFFSET 2900) page ON page.id = u.id
        ORDER BY u.created_at, u.id`,
      [tenant.ws.id],
    )) as { 'QUERY PLAN': unknown }[];
    type PlanNode = { 'Node Type': string; 'Index Name'?: string; 'Heap Fetches'?: number; 'Actual Rows': number; Plans?: PlanNode[] };
    const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];
    const skip = nodes((plan as { Plan: PlanNode }[])[0].Plan).find((n) => n['Index Name'] === 'end_users_scim_page_idx');
    expect(skip).toMatchObject({ 'Node Type': 'Index Only Scan', 'Heap Fetches': 0, 'Actual Rows': 2950 });
  });

  it('pages groups with the exact total and the rows of that offset', async () => {
    const tenant = await aScimTenant(t);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await aScimGroup(tenant, `g${String(i).padStart(2, '0')}`)).id);
    for (const startIndex of [1, 5, 12, 13, 40]) {
      const res = await tenant.get(`/Groups?startIndex=${startIndex}&count=5&excludedAttributes=members`).expect(200);
      expect(res.body).toMatchObject({ totalResults: 12, startIndex });
      expect(res.body.Resources.map((g: { id: string }) => g.id)).toEqual(ids.slice(startIndex - 1, startIndex + 4));
    }
  });
});
