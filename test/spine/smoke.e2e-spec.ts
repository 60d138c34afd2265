import { createTestApp, TestApp } from '../support/app';
import { aDeveloper, aWorkspace } from '../support/factories';

describe('service boots', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('answers liveness and readiness', async () => {
    await t.http().get('/health/live').expect(200, { status: 'ok' });
    const ready = await t.http().get('/health/ready').expect(200);
    expect(ready.body.status).toBe('ok');
  });

  it('lets a developer create a workspace and read it back', async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    const list = await t.http().get('/e/v1/developer/workspaces/').set(dev.auth).expect(200);
    expect(list.body).toEqual([expect.objectContaining({ id: ws.id, member_count: 1, database_count: 0 })]);
  });
});
