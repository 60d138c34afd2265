import { randomBytes, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { Client } from 'pg';
import request from 'supertest';
import { AppProcess, spawnApp, SPAWN_HOOK_TIMEOUT_MS } from '../support/app-process';
import { databaseUrl, workerDatabaseName } from '../support/databases';
import { eventually } from '../support/eventually';
import { freePort } from '../support/private-stores';
import { testRedisPrefix } from '../support/redis-keys';
import { setUpTenantAt } from '../support/remote-tenant';
import { aCode, aPkcePair, basic, REDIRECT_URI, signInOn, type TestApplication } from '../oidc/support';

interface Attempt {
  startedAt: number;
  status: number;
}

/** One GET on a connection of its own (the cluster deals connections to its workers in turn). */
function getOnNewConnection(baseUrl: string, path: string, authorization: string): Promise<Attempt> {
  const startedAt = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${baseUrl}${path}`,
      { agent: false, headers: { Authorization: authorization, Connection: 'close' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ startedAt, status: res.statusCode ?? 0 }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * Two instances of two workers each, one database: a credential is used on every worker, without
 * pause, while it is revoked. No request that starts after the revocation's answer may succeed
 * (decision 0214): every worker of every instance has evicted it before that answer.
 */
describe('revocation is effective on every worker of every instance before it is answered', () => {
  let a: AppProcess;
  let b: AppProcess;

  beforeAll(async () => {
    const [portA, portB] = [await freePort(), await freePort()];
    const shared = {
      // One deployment behind one public address (a load balancer in production; here the first instance's):
      // the issuer and audience of its OAuth access tokens, which every instance checks (RFC 9068 §4).
      PUBLIC_BASE_URL: `http://127.0.0.1:${portA}`,
      REDIS_KEY_PREFIX: testRedisPrefix(),
      AUTH_JWT_SECRET: randomBytes(32).toString('base64url'),
      SECRETS_ENCRYPTION_KEY: `k1:${randomBytes(32).toString('base64')}`,
      WEB_CONCURRENCY: '2',
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'info',
      // On stdout (not the test run's log file): the workers' 'listening on' lines say when all serve.
      LOG_FILE: '',
    };
    [a, b] = await Promise.all([spawnApp(shared, { port: portA }), spawnApp(shared, { port: portB })]);
    // Every worker serves (and listens for revocations) before the hammering starts.
    for (const app of [a, b]) {
      await eventually(() => expect(app.logs.filter((l) => l.includes('listening on')).length).toBe(2), { timeoutMs: 120_000 });
    }
  }, SPAWN_HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  /** Attempts each of the four loops (two per instance) makes after the revocation's answer: counted, not timed. */
  const ATTEMPTS_AFTER_PER_LOOP = 4;

  /**
   * Uses `authorization` on `path` on both instances in a loop (new connections, so every worker
   * serves some and caches the credential), sends `revoke` once every loop has had an answer, and
   * goes on until each loop has started ATTEMPTS_AFTER_PER_LOOP attempts after the revocation's
   * answer; answers those attempts and how many of them succeeded.
   */
  async function hammerWhileRevoking(path: string, authorization: string, revoke: () => Promise<unknown>) {
    for (let i = 0; i < 8; i++) {
      for (const app of [a, b]) expect((await getOnNewConnection(app.baseUrl, path, authorization)).status).toBe(200);
    }
    const attempts: Attempt[] = [];
    const answeredPerLoop = [0, 0, 0, 0];
    let answeredAt = Infinity;
    const loop = async (app: AppProcess, index: number) => {
      let after = 0;
      while (after < ATTEMPTS_AFTER_PER_LOOP) {
        const attempt = await getOnNewConnection(app.baseUrl, path, authorization);
        attempts.push(attempt);
        answeredPerLoop[index]++;
        if (attempt.startedAt > answeredAt) after++;
      }
    };
    const loops = [a, b, a, b].map(loop);
    await eventually(() => expect(answeredPerLoop.every((n) => n > 0)).toBe(true));
    await revoke();
    answeredAt = performance.now();
    await Promise.all(loops);
    const after = attempts.filter((x) => x.startedAt > answeredAt);
    return { after, acceptedAfter: after.filter((x) => x.status === 200).length };
  }

  it('a SCIM token', async () => {
    const { auth, workspaceId } = await setUpTenantAt(a.baseUrl);
    const minted = await request(a.baseUrl)
      .post('/developer/scim/tokens/')
      .set(auth)
      .send({ workspace_id: workspaceId, label: 'idp' })
      .expect(201);
    const { after, acceptedAfter } = await hammerWhileRevoking('/scim/v2/Users?count=1', `Bearer ${minted.body.token}`, () =>
      request(a.baseUrl).delete(`/developer/scim/tokens/${minted.body.id}/`).set(auth).expect(200),
    );
    expect(acceptedAfter).toBe(0);
    expect(after.every((x) => x.status === 401)).toBe(true);
  }, 120_000);

  it('a developer token', async () => {
    const { auth } = await setUpTenantAt(a.baseUrl);
    const minted = await request(a.baseUrl).post('/developer/tokens/').set(auth).send({ label: 'ci' }).expect(201);
    const { acceptedAfter } = await hammerWhileRevoking('/developer/me/', `Bearer ${minted.body.token}`, () =>
      request(b.baseUrl).delete(`/developer/tokens/${minted.body.id}/`).set(auth).expect(204),
    );
    expect(acceptedAfter).toBe(0);
  }, 120_000);

  /** A SCIM OAuth client of a new workspace, and an access token minted for it on instance B. */
  async function scimOAuthClient() {
    const { auth, workspaceId } = await setUpTenantAt(a.baseUrl);
    const client = (
      await request(a.baseUrl).post('/developer/scim/clients/').set(auth).send({ workspace_id: workspaceId, label: 'Entra' }).expect(201)
    ).body as { id: string; client_id: string; secret: { id: string; value: string } };
    const basic = `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.secret.value)}`).toString('base64')}`;
    const minted = await request(b.baseUrl)
      .post('/oauth/token')
      .type('form')
      .set('Authorization', basic)
      .send({ grant_type: 'client_credentials' })
      .expect(200);
    return { auth, client, bearer: `Bearer ${minted.body.access_token as string}` };
  }

  it("a SCIM OAuth client's access token, when its secret is revoked", async () => {
    const { auth, client, bearer } = await scimOAuthClient();
    const { after, acceptedAfter } = await hammerWhileRevoking('/scim/v2/Users?count=1', bearer, () =>
      request(a.baseUrl).delete(`/developer/scim/clients/${client.id}/secrets/${client.secret.id}/`).set(auth).expect(204),
    );
    expect(acceptedAfter).toBe(0);
    expect(after.every((x) => x.status === 401)).toBe(true);
  });

  it("a SCIM OAuth client's access token, when the client is revoked", async () => {
    const { auth, client, bearer } = await scimOAuthClient();
    const { after, acceptedAfter } = await hammerWhileRevoking('/scim/v2/Users?count=1', bearer, () =>
      request(b.baseUrl).delete(`/developer/scim/clients/${client.id}/`).set(auth).expect(204),
    );
    expect(acceptedAfter).toBe(0);
    expect(after.every((x) => x.status === 401)).toBe(true);
  });

  it("an end user's session", async () => {
    const { clientId } = await setUpTenantAt(a.baseUrl);
    const email = `user-${randomUUID().slice(0, 8)}@example.test`;
    await request(a.baseUrl).post('/e/v1/auth/register/').send({ client_id: clientId, email, password: 'password-123' }).expect(201);
    const session = (
      await request(b.baseUrl).post('/e/v1/auth/login/').send({ client_id: clientId, email, password: 'password-123' }).expect(200)
    ).body as { access_token: string; session_id: string };
    const bearer = `Bearer ${session.access_token}`;
    const { acceptedAfter } = await hammerWhileRevoking('/user/security/sessions/', bearer, () =>
      request(a.baseUrl).delete(`/user/security/sessions/${session.session_id}/`).set('Authorization', bearer).expect(204),
    );
    expect(acceptedAfter).toBe(0);
  }, 120_000);

  it("an application's access token at UserInfo and introspection, when the application revokes it (RFC 7009)", async () => {
    const { auth, workspaceId } = await setUpTenantAt(a.baseUrl);
    const app = (
      await request(a.baseUrl)
        .post('/developer/oauth/clients/')
        .set(auth)
        .send({ workspace_id: workspaceId, name: 'Notes', redirect_uris: [REDIRECT_URI] })
        .expect(201)
    ).body as TestApplication;
    const email = `user-${randomUUID().slice(0, 8)}@example.test`;
    const registered = await request(a.baseUrl)
      .post('/e/v1/auth/register/')
      .send({ client_id: app.client_id, email, password: 'password-123' })
      .expect(201);
    // Its address proven (the emailed code is another suite's subject): the instances share this run's database.
    const db = new Client({ connectionString: databaseUrl(workerDatabaseName()) });
    await db.connect();
    await db.query('UPDATE end_users SET email_verified = true WHERE id = $1', [String(registered.body.id)]).finally(() => db.end());
    const agent = request.agent(b.baseUrl);
    const person = { id: String(registered.body.id), email, password: 'password-123', clientId: app.client_id };
    await signInOn(agent, person, `client_id=${app.client_id}`);
    const pkce = aPkcePair();
    const code = await aCode(agent, app, pkce);
    const tokens = (
      await request(b.baseUrl)
        .post('/oauth/token')
        .type('form')
        .set(basic(app))
        .send({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: pkce.verifier })
        .expect(200)
    ).body as { access_token: string };
    const bearer = `Bearer ${tokens.access_token}`;
    const { after, acceptedAfter } = await hammerWhileRevoking('/oauth/userinfo', bearer, () =>
      request(a.baseUrl).post('/oauth/revoke').type('form').set(basic(app)).send({ token: tokens.access_token }).expect(200),
    );
    expect(after.length).toBeGreaterThan(10);
    expect(acceptedAfter).toBe(0);
    expect(after.every((x) => x.status === 401)).toBe(true);
    // Introspection on either instance says the same at once.
    for (const instance of [a, b]) {
      const introspected = await request(instance.baseUrl)
        .post('/oauth/introspect')
        .type('form')
        .set(basic(app))
        .send({ token: tokens.access_token })
        .expect(200);
      expect(introspected.body).toEqual({ active: false });
    }
  }, 120_000);
});
