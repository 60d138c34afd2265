import { randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { AppProcess, spawnApp } from '../support/app-process';
import { eventually } from '../support/eventually';
import { mailQueueSettled } from '../support/mail-jobs';
import { setUpTenantAt } from '../support/remote-tenant';
import { startSmtpReceiver, SmtpReceiver } from '../support/smtp-receiver';
import { testRedisPrefix } from '../support/redis-keys';

/**
 * Two service processes on different ports, one Postgres database and one Redis:
 * what one instance decides, the other enforces on the very next call.
 */
describe('two instances side by side', () => {
  let a: AppProcess;
  let b: AppProcess;
  let smtp: SmtpReceiver;
  const http = (app: AppProcess) => request(app.baseUrl);

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    const shared = {
      REDIS_KEY_PREFIX: testRedisPrefix(),
      AUTH_JWT_SECRET: randomBytes(32).toString('base64url'),
      SECRETS_ENCRYPTION_KEY: `k1:${randomBytes(32).toString('base64')}`,
      SMTP_URL: smtp.url,
      RATE_LIMIT_AUTH_PER_MINUTE: '5',
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'warn',
    };
    [a, b] = await Promise.all([spawnApp(shared), spawnApp(shared)]);
  }, 180000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await smtp?.stop();
  });

  it('refuses on B a session revoked through A, on the very next call', async () => {
    const { clientId } = await setUpTenantAt(a.baseUrl);
    const email = `user-${randomUUID().slice(0, 8)}@example.test`;
    await http(a).post('/e/v1/auth/register/').send({ client_id: clientId, email, password: 'password-123' }).expect(201);
    const session = (await http(b).post('/e/v1/auth/login/').send({ client_id: clientId, email, password: 'password-123' }).expect(200))
      .body as { access_token: string; session_id: string };
    const bearer = { Authorization: `Bearer ${session.access_token}` };
    await http(b).get('/user/security/sessions/').set(bearer).expect(200);
    await http(a).delete(`/user/security/sessions/${session.session_id}/`).set(bearer).expect(204);
    await http(b).get('/user/security/sessions/').set(bearer).expect(401);
    await http(a).get('/user/security/sessions/').set(bearer).expect(401);
  }, 60000);

  // Tokens are cached per instance for up to 5 s; a revocation reaches the other instance as a
  // PostgreSQL notification, which arrives within a millisecond or two on one host (decision 0105).
  // Refused within one second therefore means evicted by the notification, not by the TTL.
  const refusedSoon = <T>(call: () => Promise<T>) => eventually(call, { timeoutMs: 1000, intervalMs: 10 });

  it('refuses on B a SCIM token revoked through A, on the next call', async () => {
    const { auth, workspaceId } = await setUpTenantAt(a.baseUrl);
    const minted = await http(a).post('/developer/scim/tokens/').set(auth).send({ workspace_id: workspaceId, label: 'idp' }).expect(201);
    const scim = { Authorization: `Bearer ${minted.body.token}` };
    for (let i = 0; i < 3; i++) await http(b).get('/scim/v2/Users').set(scim).expect(200);
    await http(a).delete(`/developer/scim/tokens/${minted.body.id}/`).set(auth).expect(200);
    const refused = await refusedSoon(() => http(b).get('/scim/v2/Users').set(scim).expect(401));
    expect(refused.body.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
  }, 60000);

  it('refuses on B and on A the SCIM tokens of a workspace deleted through A, on the next call', async () => {
    const { auth, workspaceId } = await setUpTenantAt(a.baseUrl);
    const minted = await http(a).post('/developer/scim/tokens/').set(auth).send({ workspace_id: workspaceId, label: 'idp' }).expect(201);
    const scim = { Authorization: `Bearer ${minted.body.token}` };
    for (let i = 0; i < 3; i++) for (const app of [a, b]) await http(app).get('/scim/v2/Users').set(scim).expect(200);
    await http(a).delete(`/e/v1/developer/workspaces/${workspaceId}/`).set(auth).expect(204);
    await http(a).get('/scim/v2/Users').set(scim).expect(401);
    await refusedSoon(() => http(b).get('/scim/v2/Users').set(scim).expect(401));
  }, 60000);

  it('refuses on B a developer token revoked through A, on the next call', async () => {
    const { auth } = await setUpTenantAt(a.baseUrl);
    const minted = await http(a).post('/developer/tokens/').set(auth).send({ label: 'ci' }).expect(201);
    const bearer = { Authorization: `Bearer ${minted.body.token}` };
    for (let i = 0; i < 3; i++) await http(b).get('/developer/me/').set(bearer).expect(200);
    await http(a).delete(`/developer/tokens/${minted.body.id}/`).set(auth).expect(204);
    await refusedSoon(() => http(b).get('/developer/me/').set(bearer).expect(401));
    await http(a).get('/developer/me/').set(bearer).expect(401);
  }, 60000);

  it('refuses on B and on A a member removed through A, though both had the membership cached', async () => {
    const owner = await setUpTenantAt(a.baseUrl);
    const member = await setUpTenantAt(a.baseUrl);
    const me = await http(a).get('/developer/me/').set(member.auth).expect(200);
    await http(a)
      .post(`/e/v1/developer/workspaces/${owner.workspaceId}/members/`)
      .set(owner.auth)
      .send({ email: me.body.email, role: 'member' })
      .expect(201);
    const audit = `/developer/audit/?workspace_id=${owner.workspaceId}`;
    for (let i = 0; i < 3; i++) for (const app of [a, b]) await http(app).get(audit).set(member.auth).expect(200);
    await http(a).delete(`/e/v1/developer/workspaces/${owner.workspaceId}/members/${me.body.id}/`).set(owner.auth).expect(204);
    // A evicts before answering the removal; B on the notification.
    const onA = await http(a).get(audit).set(member.auth).expect(404);
    expect(onA.body.error).toBe('not_found');
    await refusedSoon(() => http(b).get(audit).set(member.auth).expect(404));
    await http(b).get(`/e/v1/developer/workspaces/${owner.workspaceId}/`).set(member.auth).expect(404);
  }, 60000);

  it('shares rate limits: attempts on A and B count against one budget', async () => {
    const { clientId } = await setUpTenantAt(a.baseUrl);
    const attempt = (app: AppProcess) =>
      http(app)
        .post('/e/v1/auth/login/')
        .set('X-Forwarded-For', '198.51.100.7')
        .send({ client_id: clientId, email: 'nobody@example.test', password: 'wrong-password' });
    const statuses: number[] = [];
    for (const app of [a, b, a, b, a, b]) statuses.push((await attempt(app)).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses[5]).toBe(429);
  }, 60000);

  it('delivers a mail job exactly once although both workers compete for it', async () => {
    const { clientId } = await setUpTenantAt(b.baseUrl);
    const email = `once-${randomUUID().slice(0, 8)}@example.test`;
    await http(a).post('/e/v1/auth/register/').send({ client_id: clientId, email, password: 'password-123' }).expect(201);
    await smtp.waitFor(email, { timeoutMs: 20000 });
    await mailQueueSettled();
    expect(smtp.messagesTo(email)).toHaveLength(1);
  }, 60000);
});
