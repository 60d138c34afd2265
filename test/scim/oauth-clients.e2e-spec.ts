import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import { Clock } from '../../src/common/clock';
import { ConfigError, loadConfig } from '../../src/config/config';
import { createTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { aDeveloper, aWorkspace, TestDeveloper, TestWorkspace } from '../support/factories';
import { JwtIssuer } from '../support/jwt-issuer';
import { aScimUser, aUserName, ERROR_SCHEMA, scimClient, userBody } from './scim-support';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const CLIENT_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

interface CreatedClient {
  id: string;
  client_id: string;
  secret: { id: string; value: string; expires_at: string };
}

describe('SCIM OAuth clients and the token endpoint', () => {
  let t: TestApp;
  let issuer: JwtIssuer;
  beforeAll(async () => {
    issuer = await JwtIssuer.start();
    t = await createTestApp({ OAUTH_JWKS_ALLOW_PRIVATE_TARGETS: 'true' });
  });
  afterAll(async () => {
    await t.close();
    await issuer.stop();
  });

  const tokenEndpoint = () => `${t.baseUrl}/oauth/token`;

  async function aClient(dev: TestDeveloper, ws: TestWorkspace, body: Record<string, unknown> = {}): Promise<CreatedClient> {
    const res = await t
      .http()
      .post('/developer/scim/clients/')
      .set(dev.auth)
      .send({ workspace_id: ws.id, label: 'Entra', ...body });
    if (res.status !== 201) throw new Error(`client create failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as CreatedClient;
  }

  const basic = (id: string, secret: string) =>
    `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

  function tokenRequest(form: Record<string, string>, authorization?: string) {
    const req = t.http().post('/oauth/token').type('form');
    if (authorization) req.set('Authorization', authorization);
    return req.send(form);
  }

  async function accessToken(client: CreatedClient, secret = client.secret.value): Promise<string> {
    const res = await tokenRequest({ grant_type: 'client_credentials' }, basic(client.client_id, secret)).expect(200);
    return res.body.access_token as string;
  }

  async function tenant() {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    return { dev, ws };
  }

  it('creates a client whose secret is shown once and stored as SHA-256, and lists it without the secret', async () => {
    const { dev, ws } = await tenant();
    const client = await aClient(dev, ws);
    expect(client).toEqual({
      id: expect.any(String),
      client_id: expect.stringMatching(/^scimc_[0-9a-f]{32}$/),
      label: 'Entra',
      workspace_id: ws.id,
      created_at: expect.any(String),
      secret: { id: expect.any(String), value: expect.stringMatching(/^scs_/), expires_at: expect.any(String) },
    });
    // Default expiry: one year.
    const days = (Date.parse(client.secret.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThan(366);

    const list = await t.http().get(`/developer/scim/clients/?workspace_id=${ws.id}`).set(dev.auth).expect(200);
    expect(list.body.results).toEqual([
      expect.objectContaining({
        id: client.id,
        client_id: client.client_id,
        revoked_at: null,
        secrets: [expect.objectContaining({ id: client.secret.id })],
      }),
    ]);
    expect(JSON.stringify(list.body)).not.toContain(client.secret.value);
    const [row] = await t.dataSource.query(`SELECT secret_hash FROM scim_oauth_client_secrets WHERE id = $1`, [client.secret.id]);
    expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);

    const audit = await t.dataSource.query(
      `SELECT actor_type, actor_id, target_id FROM audit_events WHERE workspace_id = $1 AND event_type = 'scim_client_create'`,
      [ws.id],
    );
    expect(audit).toEqual([{ actor_type: 'developer', actor_id: dev.id, target_id: client.id }]);
  });

  it('issues a workspace-scoped access token for client_secret_basic and client_secret_post that works on /scim/v2 like a scim_ token', async () => {
    const { dev, ws } = await tenant();
    const client = await aClient(dev, ws);
    const res = await tokenRequest(
      { grant_type: 'client_credentials', scope: 'scim' },
      basic(client.client_id, client.secret.value),
    ).expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, scope: 'scim' });
    const post = await tokenRequest({
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: client.secret.value,
    }).expect(200);

    for (const token of [res.body.access_token as string, post.body.access_token as string]) {
      const scim = scimClient(t, token);
      const user = await aScimUser(scim as never);
      await scim.get(`/Users/${user.id}`).expect(200);
    }
    // The token is verifiable with the published JWKS alone (an independent check of its signature and claims).
    const jwks = await t.http().get('/oauth/jwks').expect(200);
    const { payload, protectedHeader } = await jwtVerify(res.body.access_token, createLocalJWKSet(jwks.body), {
      issuer: t.baseUrl,
      audience: `${t.baseUrl}/scim/v2`,
    });
    expect(protectedHeader).toMatchObject({ alg: 'EdDSA', typ: 'at+jwt' });
    expect(payload).toMatchObject({ sub: client.client_id, client_id: client.client_id, scope: 'scim', wid: ws.id });
    expect(payload.exp! - payload.iat!).toBe(3600);

    // SCIM writes are audited with the client as actor; token issuance too.
    const writes = await t.dataSource.query(
      `SELECT DISTINCT actor_type, actor_id, oauth_client_id FROM audit_events WHERE workspace_id = $1 AND event_type = 'scim_user_create'`,
      [ws.id],
    );
    expect(writes).toEqual([{ actor_type: 'oauth_client', actor_id: client.id, oauth_client_id: client.id }]);
    const issued = await t.dataSource.query(
      `SELECT actor_type, actor_id, metadata->>'auth_method' AS method FROM audit_events WHERE workspace_id = $1 AND event_type = 'oauth_token_issue' ORDER BY created_at`,
      [ws.id],
    );
    expect(issued).toEqual([
      { actor_type: 'oauth_client', actor_id: client.id, method: 'client_secret_basic' },
      { actor_type: 'oauth_client', actor_id: client.id, method: 'client_secret_post' },
    ]);
  });

  it('keeps two secrets live during a rotation, and kills the tokens of a revoked secret on their next call', async () => {
    const { dev, ws } = await tenant();
    const client = await aClient(dev, ws);
    const second = await t.http().post(`/developer/scim/clients/${client.id}/secrets/`).set(dev.auth).send({}).expect(201);
    expect(second.body).toEqual({ id: expect.any(String), value: expect.stringMatching(/^scs_/), expires_at: expect.any(String) });
    const oldToken = await accessToken(client);
    const newToken = await accessToken(client, second.body.value);
    await scimClient(t, oldToken).get('/Users').expect(200);
    await scimClient(t, newToken).get('/Users').expect(200);

    await t.http().delete(`/developer/scim/clients/${client.id}/secrets/${client.secret.id}/`).set(dev.auth).expect(204);
    const refused = await scimClient(t, oldToken).get('/Users').expect(401);
    expect(refused.body.schemas).toEqual([ERROR_SCHEMA]);
    await scimClient(t, newToken).get('/Users').expect(200);
    const denied = await tokenRequest({ grant_type: 'client_credentials' }, basic(client.client_id, client.secret.value)).expect(401);
    expect(denied.body).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
    expect(denied.headers['www-authenticate']).toMatch(/^Basic /);

    const revokes = await t.dataSource.query(
      `SELECT metadata->>'reason' AS reason, target_id FROM audit_events WHERE workspace_id = $1 AND event_type = 'oauth_token_revoke'`,
      [ws.id],
    );
    expect(revokes).toEqual([{ reason: 'secret_revoked', target_id: client.secret.id }]);
    // Idempotent.
    await t.http().delete(`/developer/scim/clients/${client.id}/secrets/${client.secret.id}/`).set(dev.auth).expect(204);
  });

  it('kills every token of a revoked client on its next call, and refuses it new ones', async () => {
    const { dev, ws } = await tenant();
    const client = await aClient(dev, ws);
    const token = await accessToken(client);
    for (let i = 0; i < 3; i++) await scimClient(t, token).get('/Users').expect(200);
    await t.http().delete(`/developer/scim/clients/${client.id}/`).set(dev.auth).expect(204);
    await scimClient(t, token).get('/Users').expect(401);
    await tokenRequest({ grant_type: 'client_credentials' }, basic(client.client_id, client.secret.value)).expect(401);
    const shown = await t.http().get(`/developer/scim/clients/${client.id}/`).set(dev.auth).expect(200);
    expect(shown.body.revoked_at).toEqual(expect.any(String));
    await t.http().post(`/developer/scim/clients/${client.id}/secrets/`).set(dev.auth).send({}).expect(409);
    const events = await t.dataSource.query(
      `SELECT event_type FROM audit_events WHERE workspace_id = $1 AND event_type IN ('scim_client_revoke', 'oauth_token_revoke') ORDER BY event_type`,
      [ws.id],
    );
    expect(events.map((e: { event_type: string }) => e.event_type)).toEqual(['oauth_token_revoke', 'scim_client_revoke']);
  });

  it('refuses a token whose client another instance revoked, on the next call after the notification', async () => {
    const { dev, ws } = await tenant();
    const client = await aClient(dev, ws);
    const token = await accessToken(client);
    for (let i = 0; i < 3; i++) await scimClient(t, token).get('/Users').expect(200);
    await t.dataSource.transaction(async (m) => {
      await m.query(`UPDATE scim_oauth_clients SET revoked_at = now() WHERE id = $1`, [client.id]);
      await m.query(`SELECT pg_notify('credential_revoked', $1)`, [`oauth-client:${client.id}`]);
    });
    await eventually(() => scimClient(t, token).get('/Users').expect(401), { timeoutMs: 1000, intervalMs: 10 });
  });

  it('refuses an expired access token with 401', async () => {
    const { dev, ws } = await tenant();
    const token = await accessToken(await aClient(dev, ws));
    await scimClient(t, token).get('/Users').expect(200);
    const clock = t.get<Clock>(Clock);
    clock.advance(3601_000);
    try {
      await scimClient(t, token).get('/Users').expect(401);
    } finally {
      clock.reset();
    }
  });

  it('authenticates private_key_jwt with an inline JWK Set and with a JWKS URL, and refuses replayed, expired, far-future and misaddressed assertions', async () => {
    const { dev, ws } = await tenant();
    const inline = await aClient(dev, ws);
    await t
      .http()
      .put(`/developer/scim/clients/${inline.id}/keys/`)
      .set(dev.auth)
      .send({ jwks: { keys: [issuer.publicJwk] } })
      .expect(200);
    const remote = await aClient(dev, ws);
    const shown = await t
      .http()
      .put(`/developer/scim/clients/${remote.id}/keys/`)
      .set(dev.auth)
      .send({ jwks_uri: issuer.jwksUri })
      .expect(200);
    expect(shown.body.keys).toEqual({ jwks_uri: issuer.jwksUri, jwks: null });

    const assertionFor = (clientId: string, claims: Record<string, unknown> = {}, opts: { expiresIn?: number; jti?: string | null } = {}) =>
      issuer.sign({ iss: clientId, sub: clientId, aud: tokenEndpoint(), ...claims }, opts);
    const withAssertion = (assertion: string) =>
      tokenRequest({ grant_type: 'client_credentials', client_assertion_type: CLIENT_ASSERTION, client_assertion: assertion });

    for (const client of [inline, remote]) {
      const assertion = await assertionFor(client.client_id);
      const res = await withAssertion(assertion).expect(200);
      await scimClient(t, res.body.access_token).get('/Users').expect(200);
      const replay = await withAssertion(assertion).expect(401);
      expect(replay.body).toEqual({ error: 'invalid_client', error_description: expect.stringContaining('already used') });
    }
    const expired = await withAssertion(await assertionFor(inline.client_id, {}, { expiresIn: -120 })).expect(401);
    expect(expired.body.error_description).toContain('expired');
    const farFuture = await withAssertion(await assertionFor(inline.client_id, {}, { expiresIn: 3600 })).expect(401);
    expect(farFuture.body.error_description).toContain('300 s');
    await withAssertion(await assertionFor(inline.client_id, { aud: 'https://elsewhere.example/token' })).expect(401);
    await withAssertion(await assertionFor(inline.client_id, {}, { jti: null })).expect(401);
    // A client without keys cannot use private_key_jwt at all.
    const keyless = await aClient(dev, ws);
    await withAssertion(await assertionFor(keyless.client_id)).expect(401);
    // One method per request.
    const both = await tokenRequest({
      grant_type: 'client_credentials',
      client_id: inline.client_id,
      client_secret: inline.secret.value,
      client_assertion_type: CLIENT_ASSERTION,
      client_assertion: await assertionFor(inline.client_id),
    }).expect(400);
    expect(both.body.error).toBe('invalid_request');
  });

  it('exchanges a JWT of the trusted external issuer (JWT-bearer grant) and refuses expired, replayed or foreign ones', async () => {
    const { dev, ws } = await tenant();
    const client = await aClient(dev, ws);
    const external = 'https://login.example.test/tenant-1/v2.0';
    const assertion = (claims: Record<string, unknown> = {}, opts: { expiresIn?: number; jti?: string | null } = {}) =>
      issuer.sign({ iss: external, sub: 'workload-42', aud: 'api://scim-provisioning', ...claims }, opts);
    const exchange = async (jwt: string) => tokenRequest({ grant_type: JWT_BEARER, client_id: client.client_id, assertion: jwt });

    const untrusted = await exchange(await assertion());
    expect(untrusted.status).toBe(400);
    expect(untrusted.body.error).toBe('unauthorized_client');

    await t
      .http()
      .put(`/developer/scim/clients/${client.id}/federation/`)
      .set(dev.auth)
      .send({ issuer: external, jwks_uri: issuer.jwksUri, subject: 'workload-42', audience: 'api://scim-provisioning' })
      .expect(200);
    const jwt = await assertion();
    const res = await exchange(jwt);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'Bearer', scope: 'scim' });
    expect(decodeJwt(res.body.access_token)).toMatchObject({ crd: 'federation', wid: ws.id });
    const scim = scimClient(t, res.body.access_token);
    await scim.post('/Users', userBody(aUserName())).expect(201);

    const replay = await exchange(jwt);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await exchange(await assertion({}, { expiresIn: -120 }))).body.error).toBe('invalid_grant');
    expect((await exchange(await assertion({ sub: 'someone-else' }))).body.error).toBe('invalid_grant');
    expect((await exchange(await assertion({ iss: 'https://evil.example.test' }))).body.error).toBe('invalid_grant');
    expect((await exchange(await assertion({ aud: tokenEndpoint() }))).body.error).toBe('invalid_grant');
    const missing = await tokenRequest({ grant_type: JWT_BEARER, client_id: client.client_id });
    expect(missing.body.error).toBe('invalid_request');
  });

  it('answers RFC 6749 §5.2 errors for malformed requests', async () => {
    const { dev, ws } = await tenant();
    const client = await aClient(dev, ws);
    const auth = basic(client.client_id, client.secret.value);
    const cases: [Record<string, string>, string | undefined, number, string][] = [
      [{}, auth, 400, 'invalid_request'],
      [{ grant_type: 'password' }, auth, 400, 'unsupported_grant_type'],
      [{ grant_type: 'client_credentials', scope: 'admin' }, auth, 400, 'invalid_scope'],
      [{ grant_type: 'client_credentials' }, basic(client.client_id, 'scs_wrong'), 401, 'invalid_client'],
      [{ grant_type: 'client_credentials' }, basic('scimc_00000000000000000000000000000000', 'x'), 401, 'invalid_client'],
      [{ grant_type: 'client_credentials', client_id: client.client_id }, undefined, 401, 'invalid_client'],
      [{ grant_type: 'client_credentials' }, undefined, 401, 'invalid_client'],
    ];
    for (const [form, authorization, status, error] of cases) {
      const res = await tokenRequest(form, authorization);
      expect({ status: res.status, error: res.body.error, cache: res.headers['cache-control'] }).toEqual({
        status,
        error,
        cache: 'no-store',
      });
      expect(res.body.error_description).toEqual(expect.any(String));
    }
    const json = await t.http().post('/oauth/token').set('Authorization', auth).send({ grant_type: 'client_credentials' });
    expect(json.status).toBe(400);
    expect(json.body.error).toBe('invalid_request');
    const repeated = await t
      .http()
      .post('/oauth/token')
      .set('Authorization', auth)
      .type('form')
      .send('grant_type=client_credentials&scope=scim&scope=scim');
    expect(repeated.body.error).toBe('invalid_request');
  });

  it('publishes RFC 8414 metadata', async () => {
    const res = await t.http().get('/.well-known/oauth-authorization-server').expect(200);
    expect(res.body).toMatchObject({
      issuer: t.baseUrl,
      token_endpoint: `${t.baseUrl}/oauth/token`,
      jwks_uri: `${t.baseUrl}/oauth/jwks`,
      grant_types_supported: expect.arrayContaining(['client_credentials', JWT_BEARER]),
      // The document is the whole server's: the OpenID provider adds `none` (public applications) and its scopes.
      token_endpoint_auth_methods_supported: expect.arrayContaining(['client_secret_basic', 'client_secret_post', 'private_key_jwt']),
      token_endpoint_auth_signing_alg_values_supported: expect.arrayContaining(['RS256', 'ES256', 'EdDSA']),
      scopes_supported: expect.arrayContaining(['scim']),
    });
  });

  it('keeps workspaces apart: a stranger gets 404 on every client endpoint, and a token reads only its workspace', async () => {
    const a = await tenant();
    const b = await tenant();
    const client = await aClient(a.dev, a.ws);
    const s = b.dev.auth;
    await t.http().post('/developer/scim/clients/').set(s).send({ workspace_id: a.ws.id, label: 'x' }).expect(404);
    await t.http().get(`/developer/scim/clients/?workspace_id=${a.ws.id}`).set(s).expect(404);
    await t.http().get(`/developer/scim/clients/${client.id}/`).set(s).expect(404);
    await t.http().post(`/developer/scim/clients/${client.id}/secrets/`).set(s).send({}).expect(404);
    await t.http().delete(`/developer/scim/clients/${client.id}/secrets/${client.secret.id}/`).set(s).expect(404);
    await t.http().put(`/developer/scim/clients/${client.id}/keys/`).set(s).send({ jwks_uri: issuer.jwksUri }).expect(404);
    await t
      .http()
      .put(`/developer/scim/clients/${client.id}/federation/`)
      .set(s)
      .send({ issuer: 'https://x.test', jwks_uri: issuer.jwksUri, subject: 'x' })
      .expect(404);
    await t.http().delete(`/developer/scim/clients/${client.id}/`).set(s).expect(404);
    await t.http().get(`/developer/scim/clients/not-a-uuid/`).set(a.dev.auth).expect(404);
    // The owner's other secret id under this client: 404 too.
    const other = await aClient(b.dev, b.ws);
    await t.http().delete(`/developer/scim/clients/${client.id}/secrets/${other.secret.id}/`).set(a.dev.auth).expect(404);
    await tokenRequest({ grant_type: 'client_credentials' }, basic(client.client_id, client.secret.value)).expect(200);

    const userOfB = await aScimUser(scimClient(t, await accessToken(other)) as never);
    await scimClient(t, await accessToken(client))
      .get(`/Users/${userOfB.id}`)
      .expect(404);
  });

  it('refuses null, unknown fields and unusable keys with 400 validation_failed', async () => {
    const { dev, ws } = await tenant();
    const client = await aClient(dev, ws);
    const bad: [string, string, Record<string, unknown>][] = [
      ['post', '/developer/scim/clients/', { workspace_id: ws.id, label: null }],
      ['post', '/developer/scim/clients/', { workspace_id: ws.id, label: 'x', expires_at: null }],
      ['post', '/developer/scim/clients/', { workspace_id: ws.id, label: 'x', expires_at: '2001-01-01T00:00:00Z' }],
      ['post', `/developer/scim/clients/${client.id}/secrets/`, { expires_at: null }],
      ['post', `/developer/scim/clients/${client.id}/secrets/`, { nope: 1 }],
      ['put', `/developer/scim/clients/${client.id}/keys/`, {}],
      ['put', `/developer/scim/clients/${client.id}/keys/`, { jwks: null }],
      ['put', `/developer/scim/clients/${client.id}/keys/`, { jwks: { keys: [{ kty: 'oct', k: 'c2VjcmV0' }] } }],
      ['put', `/developer/scim/clients/${client.id}/keys/`, { jwks: { keys: [{ ...issuer.publicJwk, d: 'x' }] } }],
      ['put', `/developer/scim/clients/${client.id}/keys/`, { jwks_uri: 'https://127.0.0.1/jwks', jwks: { keys: [issuer.publicJwk] } }],
      ['put', `/developer/scim/clients/${client.id}/federation/`, { issuer: 'https://x.test', jwks_uri: issuer.jwksUri, subject: null }],
      ['put', `/developer/scim/clients/${client.id}/federation/`, { issuer: 'https://x.test', jwks_uri: 'not a url', subject: 's' }],
    ];
    for (const [method, path, body] of bad) {
      const res = await (method === 'post' ? t.http().post(path) : t.http().put(path)).set(dev.auth).send(body);
      expect({ path, body, status: res.status, error: res.body.error }).toEqual({ path, body, status: 400, error: 'validation_failed' });
    }
  });
});

describe('access token lifetime', () => {
  it('is configurable from 5 minutes to 6 hours, and the token endpoint says so in expires_in', async () => {
    expect(() => loadConfig({ OAUTH_ACCESS_TOKEN_TTL_SECONDS: '299' })).toThrow(ConfigError);
    expect(() => loadConfig({ OAUTH_ACCESS_TOKEN_TTL_SECONDS: '21601' })).toThrow(ConfigError);
    expect(loadConfig({ OAUTH_ACCESS_TOKEN_TTL_SECONDS: '21600' }).OAUTH_ACCESS_TOKEN_TTL_SECONDS).toBe(21600);
    const t = await createTestApp({ OAUTH_ACCESS_TOKEN_TTL_SECONDS: '300' });
    try {
      const dev = await aDeveloper(t);
      const ws = await aWorkspace(t, dev);
      const client = await t
        .http()
        .post('/developer/scim/clients/')
        .set(dev.auth)
        .send({ workspace_id: ws.id, label: 'short' })
        .expect(201);
      const res = await t
        .http()
        .post('/oauth/token')
        .type('form')
        .send({ grant_type: 'client_credentials', client_id: client.body.client_id, client_secret: client.body.secret.value })
        .expect(200);
      expect(res.body.expires_in).toBe(300);
      const clock = t.get<Clock>(Clock);
      await scimClient(t, res.body.access_token).get('/Users').expect(200);
      clock.advance(301_000);
      try {
        await scimClient(t, res.body.access_token).get('/Users').expect(401);
      } finally {
        clock.reset();
      }
    } finally {
      await t.close();
    }
  });
});
