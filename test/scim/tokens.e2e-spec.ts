import { Clock } from '../../src/common/clock';
import { createTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { aDeveloper, aWorkspace } from '../support/factories';
import { aScimToken, aScimUser, aUserName, ERROR_SCHEMA, scimClient, userBody } from './scim-support';

describe('SCIM tokens', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('mints a scim_ token shown once, lists it without the secret, and stores only its SHA-256', async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const res = await t.http().post('/developer/scim/tokens/').set(dev.auth).send({ workspace_id: ws.id, label: 'Okta' }).expect(201);
    expect(res.body).toMatchObject({ label: 'Okta', is_active: true, expires_at: null });
    expect(res.body.token).toMatch(/^scim_[A-Za-z0-9_-]{54}$/); // 40 bytes base64url = 54 chars

    const list = await t.http().get(`/developer/scim/tokens/?workspace_id=${ws.id}`).set(dev.auth).expect(200);
    expect(list.body.results).toEqual([expect.objectContaining({ id: res.body.id, label: 'Okta', is_active: true })]);
    expect(JSON.stringify(list.body)).not.toContain(res.body.token);

    const [row] = await t.dataSource.query(`SELECT token_hash FROM scim_tokens WHERE id = $1`, [res.body.id]);
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.token_hash).not.toContain(res.body.token);

    const audit = await t.dataSource.query(
      `SELECT actor_type, actor_id, target_id FROM audit_events WHERE workspace_id = $1 AND event_type = 'scim_token_create'`,
      [ws.id],
    );
    expect(audit).toEqual([{ actor_type: 'developer', actor_id: dev.id, target_id: res.body.id }]);
  });

  it('refuses a revoked token with 401 and a SCIM error body on the very next call', async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const { id, token } = await aScimToken(t, dev, ws);
    const scim = scimClient(t, token);
    await scim.get('/Users').expect(200);

    const revoked = await t.http().delete(`/developer/scim/tokens/${id}/`).set(dev.auth).expect(200);
    expect(revoked.body).toEqual({ id, is_active: false, revoked_at: expect.any(String) });

    const res = await scim.get('/Users').expect(401);
    expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
    expect(res.body).toEqual({ schemas: [ERROR_SCHEMA], status: '401', detail: expect.any(String) });
    await scim.post('/Users', userBody(aUserName())).expect(401);

    const audit = await t.dataSource.query(
      `SELECT actor_id FROM audit_events WHERE workspace_id = $1 AND event_type = 'scim_token_revoke'`,
      [ws.id],
    );
    expect(audit).toEqual([{ actor_id: dev.id }]);
    // Revoking again changes nothing.
    const again = await t.http().delete(`/developer/scim/tokens/${id}/`).set(dev.auth).expect(200);
    expect(again.body.revoked_at).toBe(revoked.body.revoked_at);
  });

  it('refuses a token revoked by another instance on the next call to this one', async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const { id, token } = await aScimToken(t, dev, ws);
    // Warm this instance's token cache.
    for (let i = 0; i < 3; i++) await scimClient(t, token).get('/ServiceProviderConfig').expect(200);
    // What another instance's revoke commits: the row change and its notification, in one transaction.
    await t.dataSource.transaction(async (m) => {
      const [[row]] = await m.query(`UPDATE scim_tokens SET is_active = false, revoked_at = now() WHERE id = $1 RETURNING token_hash`, [
        id,
      ]);
      await m.query(`SELECT pg_notify('credential_revoked', $1)`, [row.token_hash]);
    });
    await eventually(() => scimClient(t, token).get('/ServiceProviderConfig').expect(401), { timeoutMs: 1000, intervalMs: 10 });
  });

  it('refuses an expired, unknown or missing token with 401', async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const res = await t
      .http()
      .post('/developer/scim/tokens/')
      .set(dev.auth)
      .send({ workspace_id: ws.id, label: 'short', expires_at: new Date(Date.now() + 3_000).toISOString() })
      .expect(201);
    await scimClient(t, res.body.token).get('/ServiceProviderConfig').expect(200);
    const clock = t.get<Clock>(Clock);
    // Within the token cache's 5 s lifetime: the cached entry must lapse at the token's expiry.
    clock.advance(3_500);
    try {
      await scimClient(t, res.body.token).get('/ServiceProviderConfig').expect(401);
    } finally {
      clock.reset();
    }
    await scimClient(t, `scim_${'x'.repeat(54)}`)
      .get('/Users')
      .expect(401);
    await scimClient(t, dev.token).get('/Users').expect(401);
    const none = await t.http().get('/scim/v2/Users').expect(401);
    expect(none.body.schemas).toEqual([ERROR_SCHEMA]);
  });

  it('does not let a developer mint, list or revoke tokens of a workspace they are not in', async () => {
    const owner = await aDeveloper(t);
    const stranger = await aDeveloper(t);
    const ws = await aWorkspace(t, owner);
    const { id } = await aScimToken(t, owner, ws);
    await t.http().post('/developer/scim/tokens/').set(stranger.auth).send({ workspace_id: ws.id, label: 'x' }).expect(404);
    await t.http().get(`/developer/scim/tokens/?workspace_id=${ws.id}`).set(stranger.auth).expect(404);
    await t.http().delete(`/developer/scim/tokens/${id}/`).set(stranger.auth).expect(404);
    await t.http().delete(`/developer/scim/tokens/not-a-uuid/`).set(owner.auth).expect(404);
  });

  it('audits SCIM writes with the token as actor, in the same transaction as the change', async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const { id: tokenId, token } = await aScimToken(t, dev, ws);
    const s = { ...scimClient(t, token) };
    const user = await aScimUser(s as never);
    await s.patch(`/Users/${user.id}`, { Operations: [{ op: 'replace', path: 'active', value: false }] }).expect(200);
    await s.delete(`/Users/${user.id}`).expect(204);
    const rows = await t.dataSource.query(
      `SELECT event_type, actor_type, actor_id, target_type, target_id FROM audit_events WHERE workspace_id = $1 AND event_type LIKE 'scim_user_%' ORDER BY created_at`,
      [ws.id],
    );
    expect(rows).toEqual(
      ['scim_user_create', 'scim_user_update', 'scim_user_delete'].map((event_type) => ({
        event_type,
        actor_type: 'api_token',
        actor_id: tokenId,
        target_type: 'EndUser',
        target_id: user.id,
      })),
    );
  });
});
