import { createTestApp, TestApp } from '../support/app';
import { aDeveloper, anOAuthClient, aWorkspace, TestDeveloper } from '../support/factories';

describe('workspaces, membership and OAuth clients', () => {
  let t: TestApp;
  let owner: TestDeveloper;
  let stranger: TestDeveloper;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await aDeveloper(t);
    stranger = await aDeveloper(t);
  });
  afterAll(() => t.close());

  it('creates, reads, renames and lists workspaces with counts', async () => {
    const created = await t
      .http()
      .post('/e/v1/developer/workspaces/')
      .set(owner.auth)
      .send({ name: 'Acme', description: 'prod' })
      .expect(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'Acme',
      description: 'prod',
      database_count: 0,
      member_count: 1,
      created_at: expect.any(String),
    });
    const renamed = await t
      .http()
      .patch(`/e/v1/developer/workspaces/${created.body.id}/`)
      .set(owner.auth)
      .send({ name: 'Acme Inc' })
      .expect(200);
    expect(renamed.body).toMatchObject({ name: 'Acme Inc', description: 'prod' });
    const list = await t.http().get('/e/v1/developer/workspaces/').set(owner.auth).expect(200);
    expect(Array.isArray(list.body)).toBe(true);
    expect(list.body.map((w: { id: string }) => w.id)).toContain(created.body.id);
    const strangers = await t.http().get('/e/v1/developer/workspaces/').set(stranger.auth).expect(200);
    expect(strangers.body.map((w: { id: string }) => w.id)).not.toContain(created.body.id);
  });

  it('answers 404 to a non-member on every workspace route, and changes nothing', async () => {
    const ws = await aWorkspace(t, owner);
    const base = `/e/v1/developer/workspaces/${ws.id}`;
    const calls = [
      t.http().get(`${base}/`),
      t.http().patch(`${base}/`).send({ name: 'pwned' }),
      t.http().delete(`${base}/`),
      t.http().get(`${base}/members/`),
      t.http().post(`${base}/members/`).send({ email: stranger.email, role: 'owner' }),
      t.http().delete(`${base}/members/${owner.id}/`),
      t.http().get(`/developer/oauth/clients/?workspace_id=${ws.id}`),
      t.http().post('/developer/oauth/clients/').send({ workspace_id: ws.id, name: 'x' }),
      t.http().get(`/developer/audit/?workspace_id=${ws.id}`),
      t.http().get(`/developer/audit/export/?workspace_id=${ws.id}`),
    ];
    for (const call of calls) {
      const res = await call.set(stranger.auth);
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 404, error: 'not_found' });
    }
    const still = await t.http().get(`${base}/`).set(owner.auth).expect(200);
    expect(still.body.name).toBe(ws.name);
  });

  it('answers 404 for malformed workspace ids instead of a database error', async () => {
    await t.http().get('/e/v1/developer/workspaces/not-a-uuid/').set(owner.auth).expect(404);
    await t.http().get('/e/v1/developer/workspaces/00000000-0000-0000-0000-000000000000/').set(owner.auth).expect(404);
  });

  it('lets the owner add a member who then sees the workspace; members cannot manage membership', async () => {
    const ws = await aWorkspace(t, owner);
    const member = await aDeveloper(t);
    const added = await t
      .http()
      .post(`/e/v1/developer/workspaces/${ws.id}/members/`)
      .set(owner.auth)
      .send({ email: member.email.toUpperCase(), role: 'member' })
      .expect(201);
    expect(added.body).toMatchObject({ developer_id: member.id, role: 'member' });
    await t
      .http()
      .post(`/e/v1/developer/workspaces/${ws.id}/members/`)
      .set(owner.auth)
      .send({ email: member.email, role: 'member' })
      .expect(409);
    await t.http().get(`/e/v1/developer/workspaces/${ws.id}/`).set(member.auth).expect(200);
    const forbidden = await t.http().delete(`/e/v1/developer/workspaces/${ws.id}/members/${owner.id}/`).set(member.auth).expect(403);
    expect(forbidden.body.error).toBe('forbidden');
    await t.http().delete(`/e/v1/developer/workspaces/${ws.id}/`).set(member.auth).expect(403);
    const members = await t.http().get(`/e/v1/developer/workspaces/${ws.id}/members/`).set(member.auth).expect(200);
    expect(members.body.results).toHaveLength(2);
    const ws2 = await t.http().get(`/e/v1/developer/workspaces/${ws.id}/`).set(owner.auth).expect(200);
    expect(ws2.body.member_count).toBe(2);
  });

  it('refuses to add an unknown developer and to remove the last owner', async () => {
    const ws = await aWorkspace(t, owner);
    const unknown = await t
      .http()
      .post(`/e/v1/developer/workspaces/${ws.id}/members/`)
      .set(owner.auth)
      .send({ email: 'nobody@example.test', role: 'member' })
      .expect(400);
    expect(unknown.body.details).toHaveProperty('email');
    const last = await t.http().delete(`/e/v1/developer/workspaces/${ws.id}/members/${owner.id}/`).set(owner.auth).expect(409);
    expect(last.body.error).toBe('conflict');
  });

  it('deletes a workspace (owner only) and keeps its audit trail', async () => {
    const ws = await aWorkspace(t, owner);
    await t.http().delete(`/e/v1/developer/workspaces/${ws.id}/`).set(owner.auth).expect(204);
    await t.http().get(`/e/v1/developer/workspaces/${ws.id}/`).set(owner.auth).expect(404);
    const rows = (await t.dataSource.query(`SELECT event_type FROM audit_events WHERE workspace_id = $1 ORDER BY created_at`, [ws.id])) as {
      event_type: string;
    }[];
    expect(rows.map((r) => r.event_type)).toEqual(['workspace_create', 'workspace_delete']);
  });

  it('manages OAuth clients: secret shown once and stored hashed, rotation, 404 across tenants', async () => {
    const ws = await aWorkspace(t, owner);
    const client = await anOAuthClient(t, owner, ws);
    expect(client.client_secret).toMatch(/^cs_/);
    const read = await t.http().get(`/developer/oauth/clients/${client.id}/`).set(owner.auth).expect(200);
    expect(read.body).not.toHaveProperty('client_secret');
    const stored = (await t.dataSource.query(`SELECT client_secret_hash FROM oauth_clients WHERE id = $1`, [client.id])) as {
      client_secret_hash: string;
    }[];
    expect(stored[0].client_secret_hash).not.toContain(client.client_secret);
    const rotated = await t.http().post(`/developer/oauth/clients/${client.id}/secret/`).set(owner.auth).expect(200);
    expect(rotated.body.client_secret).not.toBe(client.client_secret);
    const updated = await t.http().put(`/developer/oauth/clients/${client.id}/`).set(owner.auth).send({ name: 'Renamed' }).expect(200);
    expect(updated.body.name).toBe('Renamed');
    for (const call of [
      t.http().get(`/developer/oauth/clients/${client.id}/`),
      t.http().put(`/developer/oauth/clients/${client.id}/`).send({ name: 'x' }),
      t.http().post(`/developer/oauth/clients/${client.id}/secret/`),
      t.http().delete(`/developer/oauth/clients/${client.id}/`),
    ]) {
      expect((await call.set(stranger.auth)).status).toBe(404);
    }
    const list = await t.http().get(`/developer/oauth/clients/?workspace_id=${ws.id}`).set(owner.auth).expect(200);
    expect(list.body.results.map((c: { id: string }) => c.id)).toEqual([client.id]);
    await t.http().delete(`/developer/oauth/clients/${client.id}/`).set(owner.auth).expect(204);
    const events = (await t.dataSource.query(`SELECT event_type FROM audit_events WHERE target_id = $1 ORDER BY created_at`, [
      client.id,
    ])) as { event_type: string }[];
    expect(events.map((e) => e.event_type)).toEqual([
      'oauth_client_create',
      'oauth_client_secret_reset',
      'oauth_client_update',
      'oauth_client_delete',
    ]);
  });
});
