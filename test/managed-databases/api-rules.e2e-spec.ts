import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/app';
import { aDeveloper, aWorkspace } from '../support/factories';
import { createDatabase, deleteAll, managedEnv } from './support';

/** Validation, visibility and readiness rules; the worker is off so databases stay `creating`. */
describe('managed-database API rules', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp(managedEnv({ JOBS_WORKER_ENABLED: 'false', MANAGED_MONGODB_ADMIN_URL: '' }))));
  afterAll(async () => {
    await deleteAll(t);
    await t.close();
  });

  it('answers 400 naming the field for a bad engine or a missing display_name', async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const path = `/e/v1/developer/workspaces/${ws.id}/databases/`;
    const badEngine = await t.http().post(path).set(dev.auth).send({ display_name: 'x', engine: 'mysql' }).expect(400);
    expect(badEngine.body).toMatchObject({ error: 'validation_failed', details: { engine: expect.any(Array) } });
    expect(badEngine.body.message).toContain('engine');
    const noName = await t.http().post(path).set(dev.auth).send({ engine: 'postgres' }).expect(400);
    expect(noName.body).toMatchObject({ error: 'validation_failed', details: { display_name: expect.any(Array) } });
    const unknown = await t.http().post(path).set(dev.auth).send({ display_name: 'x', engine: 'postgres', superuser: true }).expect(400);
    expect(unknown.body.details).toHaveProperty('superuser');
  });

  it('answers 422 engine_unavailable for an engine without admin URL', async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const res = await t
      .http()
      .post(`/e/v1/developer/workspaces/${ws.id}/databases/`)
      .set(dev.auth)
      .send({ display_name: 'docs', engine: 'mongodb' })
      .expect(422);
    expect(res.body).toMatchObject({ error: 'engine_unavailable' });
    const list = await t.http().get(`/e/v1/developer/workspaces/${ws.id}/databases/`).set(dev.auth).expect(200);
    expect(list.body.results).toEqual([]);
  });

  it('answers 409 not_ready for connection details, metrics and backups before the database is available', async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const db = await createDatabase(t, dev, ws, 'postgres');
    for (const path of ['connection', 'metrics']) {
      const res = await t.http().get(`/e/v1/developer/databases/${db.id}/${path}/`).set(dev.auth).expect(409);
      expect(res.body).toMatchObject({ error: 'not_ready' });
    }
    await t.http().post(`/e/v1/developer/databases/${db.id}/backups/`).set(dev.auth).send({ name: 'x' }).expect(409);
    const health = await t.http().get(`/e/v1/developer/databases/${db.id}/health/`).set(dev.auth).expect(200);
    expect(health.body).toMatchObject({ status: 'unknown', checks: [{ name: 'status', ok: false, error: 'database is creating' }] });
  });

  it('answers 404 to a developer who is not a member, on every route', async () => {
    const owner = await aDeveloper(t);
    const stranger = await aDeveloper(t);
    const ws = await aWorkspace(t, owner);
    const db = await createDatabase(t, owner, ws, 'redis');
    await t.dataSource.query(`UPDATE managed_databases SET status = 'available' WHERE id = $1`, [db.id]);
    const [backup] = await t.dataSource.query(
      `INSERT INTO managed_database_backups (workspace_id, database_id, name, status) VALUES ($1, $2, 'b', 'completed') RETURNING id`,
      [ws.id, db.id],
    );
    const h = stranger.auth;
    await t.http().get(`/e/v1/developer/workspaces/${ws.id}/databases/`).set(h).expect(404);
    await t
      .http()
      .post(`/e/v1/developer/workspaces/${ws.id}/databases/`)
      .set(h)
      .send({ display_name: 'x', engine: 'postgres' })
      .expect(404);
    for (const sub of ['', 'connection/', 'metrics/', 'health/', 'backups/', 'keys/']) {
      await t.http().get(`/e/v1/developer/databases/${db.id}/${sub}`).set(h).expect(404);
    }
    await t.http().post(`/e/v1/developer/databases/${db.id}/backups/`).set(h).send({ name: 'x' }).expect(404);
    await t.http().delete(`/e/v1/developer/databases/${db.id}/`).set(h).expect(404);
    await t.http().get(`/e/v1/developer/backups/${backup.id}/`).set(h).expect(404);
    await t.http().post(`/e/v1/developer/backups/${backup.id}/restore/`).set(h).expect(404);
    // The owner still sees it all.
    await t.http().get(`/e/v1/developer/backups/${backup.id}/`).set(owner.auth).expect(200);
  });

  it('answers 404 for ids that are not UUIDs or do not exist, and 401 without credentials', async () => {
    const dev = await aDeveloper(t);
    await t.http().get('/e/v1/developer/databases/not-a-uuid/').set(dev.auth).expect(404);
    await t.http().get(`/e/v1/developer/databases/${randomUUID()}/health/`).set(dev.auth).expect(404);
    await t.http().get(`/e/v1/developer/backups/${randomUUID()}/`).set(dev.auth).expect(404);
    await t.http().get(`/e/v1/developer/databases/${randomUUID()}/`).expect(401);
  });

  it('refuses to restore a backup that has not completed', async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const db = await createDatabase(t, dev, ws, 'postgres');
    await t.dataSource.query(`UPDATE managed_databases SET status = 'available' WHERE id = $1`, [db.id]);
    const backup = await t.http().post(`/e/v1/developer/databases/${db.id}/backups/`).set(dev.auth).send({ name: 'b' }).expect(202);
    const res = await t.http().post(`/e/v1/developer/backups/${backup.body.id}/restore/`).set(dev.auth).expect(409);
    expect(res.body).toMatchObject({ error: 'not_ready' });
  });
});
