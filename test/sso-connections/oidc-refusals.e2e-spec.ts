import { createTestApp, TestApp } from '../support/app';
import { aDeveloper, aWorkspace, TestDeveloper } from '../support/factories';

/**
 * Refusals the relying party decides before any upstream answers: a callback whose state names no
 * sign-in of this browser, a provider that cannot be reached. Each is a 4xx page naming the reason in
 * words, a login_failure audit row with metadata.reason, and an attempt in the connection's list.
 */
describe('SSO connections: OIDC refusals at our end', () => {
  let t: TestApp;
  let dev: TestDeveloper;
  beforeAll(async () => {
    t = await createTestApp({ OAUTH_JWKS_ALLOW_PRIVATE_TARGETS: 'true' });
    dev = await aDeveloper(t);
  });
  afterAll(() => t.close());

  async function aConnection(issuer: string) {
    const ws = await aWorkspace(t, dev);
    const res = await t
      .http()
      .post('/developer/external-providers/')
      .set(dev.auth)
      .send({ workspace_id: ws.id, name: 'Upstream', protocol: 'oidc', oidc: { issuer, client_id: 'c', client_secret: 's' } })
      .expect(201);
    return { ws, id: res.body.id as string };
  }
  const attempts = async (id: string) =>
    (await t.http().get(`/developer/external-providers/${id}/attempts/`).set(dev.auth).expect(200)).body.results as {
      outcome: string;
      reason?: string;
    }[];
  const failureReasons = async (workspaceId: string) =>
    (
      (await t.http().get('/developer/audit/').query({ workspace_id: workspaceId, event_type: 'login_failure' }).set(dev.auth).expect(200))
        .body.results as { metadata: { reason?: string } }[]
    ).map((e) => e.metadata.reason);

  it('refuses a callback whose state this browser never started (state_mismatch), with the page, the audit row and the attempt', async () => {
    const { ws, id } = await aConnection('http://127.0.0.1:9/');
    const res = await t.http().get(`/auth/sso/${id}/callback`).query({ code: 'forged', state: 'forged-state' }).expect(400);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toContain('started in another browser or tab, or it expired');
    expect(await attempts(id)).toEqual([expect.objectContaining({ outcome: 'failure', reason: 'state_mismatch' })]);
    expect(await failureReasons(ws.id)).toContain('state_mismatch');
    // No state at all is the same refusal, never a 5xx.
    await t.http().get(`/auth/sso/${id}/callback`).expect(400);
  });

  it('refuses a sign-in whose provider cannot be reached (upstream_error, a 4xx page)', async () => {
    const { ws, id } = await aConnection('http://127.0.0.1:9/');
    const res = await t.http().get(`/auth/sso/${id}/`).query({ next: '/somewhere' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('could not be reached');
    expect((await attempts(id))[0]).toMatchObject({ outcome: 'failure', reason: 'upstream_error' });
    expect(await failureReasons(ws.id)).toContain('upstream_error');
  });

  it('answers 404 for a sign-in link that names no connection', async () => {
    await t.http().get('/auth/sso/3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11/').expect(404);
    await t.http().get('/auth/sso/not-an-id/callback').expect(404);
  });
});
