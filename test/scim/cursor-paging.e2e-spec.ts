import { createTestApp, TestApp } from '../support/app';
import { aScimGroup, aScimTenant, aUserName, ScimTenant, userBody } from './scim-support';

/** RFC 9865 cursor paging beside index paging on /Users, /Groups and /.search (issue 26). */
describe('SCIM cursor paging', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  /** Users sharing created_at values (many per instant), so the id has to break the ties. */
  async function seed(tenant: ScimTenant, n: number, label: string): Promise<void> {
    await t.dataSource.query(
      `INSERT INTO end_users (workspace_id, email, first_name, last_name, is_active, email_verified, created_at)
       SELECT $1, $3 || g || '@cursor.example', 'G', 'F', true, true, now() - (g % 37 || ' seconds')::interval FROM generate_series(1, $2::int) g`,
      [tenant.ws.id, n, label],
    );
  }

  async function scimUserIds(workspaceId: string): Promise<string[]> {
    const rows = (await t.dataSource.query(
      `SELECT id FROM end_users WHERE workspace_id = $1 AND oauth_client_id IS NULL ORDER BY created_at, id`,
      [workspaceId],
    )) as { id: string }[];
    return rows.map((r) => r.id);
  }

  /** Follows nextCursor from the empty cursor; `between` runs after each page. */
  async function walk(get: (cursor: string) => Promise<Record<string, unknown>>, between: () => Promise<void> = async () => {}) {
    const seen: string[] = [];
    let cursor = '';
    for (let pages = 0; pages < 1000; pages++) {
      const body = await get(cursor);
      expect(body).not.toHaveProperty('startIndex');
      seen.push(...(body.Resources as { id: string }[]).map((r) => r.id));
      if (typeof body.nextCursor !== 'string') return { seen, last: body };
      cursor = body.nextCursor;
      await between();
    }
    throw new Error('the walk did not end');
  }

  it('walks every user once in creation order, pages of count, the last without nextCursor', async () => {
    const tenant = await aScimTenant(t);
    await seed(tenant, 1000, 'a');
    const expected = await scimUserIds(tenant.ws.id);
    const { seen, last } = await walk(
      async (cursor) =>
        (await tenant.get(`/Users?count=70&cursor=${encodeURIComponent(cursor)}`).expect(200)).body as Record<string, unknown>,
    );
    expect(seen).toEqual(expected);
    expect(last).toMatchObject({ totalResults: 1000, itemsPerPage: 1000 % 70 });
    // Exactly one page: no nextCursor at all.
    const exact = await tenant.get('/Users?count=200&cursor=&filter=' + encodeURIComponent('userName eq "a1@cursor.example"')).expect(200);
    expect(exact.body).toMatchObject({ totalResults: 1, itemsPerPage: 1 });
    expect(exact.body).not.toHaveProperty('nextCursor');
  });

  it('returns every pre-existing user exactly once while users are created and deleted during the walk', async () => {
    const tenant = await aScimTenant(t);
    await seed(tenant, 600, 'b');
    const before = await scimUserIds(tenant.ws.id);
    let round = 0;
    const removed = new Set<string>();
    // Deactivations (SCIM DELETE is soft), hard deletes and creations, made while the client walks.
    const churn = async () => {
      round++;
      const gone = before[(round * 53 + 11) % before.length];
      removed.add(gone);
      await Promise.all([
        tenant.delete(`/Users/${before[(round * 37) % before.length]}`).expect(204),
        t.dataSource.query(`DELETE FROM end_users WHERE id = $1`, [gone]),
        tenant.post('/Users', userBody(aUserName('churn'))).expect(201),
        tenant.post('/Users', userBody(aUserName('churn'))).expect(201),
      ]);
    };
    // A churn round between every two pages: the walk always meets changes, however loaded the machine.
    let pages = 0;
    const { seen } = await walk(async (cursor) => {
      if (pages++ > 0) await churn();
      return (await tenant.get(`/Users?count=50&cursor=${encodeURIComponent(cursor)}`).expect(200)).body as Record<string, unknown>;
    });
    expect(round).toBeGreaterThan(1);
    const counts = new Map<string, number>();
    for (const id of seen) counts.set(id, (counts.get(id) ?? 0) + 1);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    // Every user that existed throughout the walk came back once (hard-deleted ones may or may not have).
    expect(before.filter((id) => !removed.has(id) && !counts.has(id))).toEqual([]);
  });

  it('walks groups, and users then groups on /.search, each once', async () => {
    const tenant = await aScimTenant(t);
    await seed(tenant, 23, 'c');
    const groups: string[] = [];
    for (let i = 0; i < 9; i++) groups.push((await aScimGroup(tenant)).id);
    const { seen: groupIds } = await walk(
      async (cursor) =>
        (await tenant.get(`/Groups?count=4&excludedAttributes=members&cursor=${encodeURIComponent(cursor)}`).expect(200)).body as Record<
          string,
          unknown
        >,
    );
    expect(groupIds).toEqual(groups);
    const users = await scimUserIds(tenant.ws.id);
    for (const count of [7, 23, 5]) {
      const { seen } = await walk(
        async (cursor) => (await tenant.post('/.search', { cursor, count }).expect(200)).body as Record<string, unknown>,
      );
      expect(seen).toEqual([...users, ...groups]);
    }
  });

  it('refuses startIndex with cursor (invalidValue) and a cursor it did not issue (invalidCursor), and advertises cursor paging', async () => {
    const tenant = await aScimTenant(t);
    await seed(tenant, 3, 'd');
    const both = await tenant.get('/Users?startIndex=1&cursor=').expect(400);
    expect(both.body.scimType).toBe('invalidValue');
    for (const bad of ['nope', Buffer.from('u:1.not-a-uuid').toString('base64url'), 'x'.repeat(500)]) {
      const res = await tenant.get(`/Users?cursor=${bad}`).expect(400);
      expect(res.body.scimType).toBe('invalidCursor');
    }
    const page = await tenant.get('/Users?count=1&cursor=').expect(200);
    const groupsWithUserCursor = await tenant.get(`/Groups?cursor=${page.body.nextCursor}`).expect(400);
    expect(groupsWithUserCursor.body.scimType).toBe('invalidCursor');
    await tenant.post('/Users/.search', { startIndex: 1, cursor: '' }).expect(400);
    const spc = await tenant.get('/ServiceProviderConfig').expect(200);
    expect(spc.body.pagination).toMatchObject({ cursor: true, index: true, maxPageSize: 200 });
  });
});
