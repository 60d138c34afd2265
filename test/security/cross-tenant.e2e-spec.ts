import { randomUUID } from 'node:crypto';
import { SoftAuthenticator } from '../end-users/soft-authenticator';
import { anEndUser, bearer, logIn } from '../end-users/support';
import { deleteAll, managedEnv, untilJobDone, anAvailableDatabase } from '../managed-databases/support';
import { samlEnv } from '../saml/support/saml-env';
import { aRegisteredSp } from '../saml/support/saml-sso.helpers';
import { aScimToken } from '../scim/scim-support';
import { createTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { aDeveloper, anOAuthClient, aWorkspace, TestDeveloper } from '../support/factories';
import { listRoutes } from '../support/routes';
import { aReceiver } from '../shared-signals/ssf-support';

/** Routes whose parameter names public, tenant-independent metadata (SCIM discovery), not a tenant's object. */
// Protocol metadata and the rendered docs (/guide/…) belong to no workspace. An SSO connection's browser routes
// (/auth/sso/{id}/…: start, callback, our public keys and SP metadata) take no credential at all: anyone with the
// link may start a sign-in at the company's IdP, and the answer is bound to the browser's own flow cookie.
const NOT_TENANT_DATA = /^\w+ (\/scim\/v2\/(ResourceTypes|Schemas)|\/guide|\/auth\/sso)\//;

type Kind = 'developer' | 'scim' | 'end-user' | 'ssf';
interface Attempt {
  path: string;
  body?: Record<string, unknown>;
}

/**
 * Tenant A owns one of everything; tenant B (its own developer, workspace, SCIM token
 * and end user) tries every id-taking route on A's objects. The list of routes comes
 * from the router: a new id-taking route without a case here fails the first test.
 */
describe('no route lets one workspace reach another workspace’s objects', () => {
  let t: TestApp;
  let a: Record<string, string>;
  let devA: TestDeveloper;
  let credentialsOfB: Record<Kind, { Authorization: string }>;

  beforeAll(async () => {
    // Private targets allowed: A's webhook points at a closed loopback port (nothing leaves the machine).
    t = await createTestApp({ ...samlEnv(), ...managedEnv(), WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    devA = await aDeveloper(t);
    const devB = await aDeveloper(t);
    const [wsA, wsB] = [await aWorkspace(t, devA), await aWorkspace(t, devB)];
    const [clientA, clientB] = [await anOAuthClient(t, devA, wsA), await anOAuthClient(t, devB, wsB)];
    const scimA = await aScimToken(t, devA, wsA);
    const scimB = await aScimToken(t, devB, wsB);
    const scimAuthA = bearer(scimA.token);
    const scimUser = await t
      .http()
      .post('/scim/v2/Users')
      .set(scimAuthA)
      .send({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: `a-${randomUUID().slice(0, 8)}@example.test`,
        active: true,
      })
      .expect(201);
    const scimGroup = await t
      .http()
      .post('/scim/v2/Groups')
      .set(scimAuthA)
      .send({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
        displayName: `A team ${randomUUID().slice(0, 6)}`,
        members: [{ value: scimUser.body.id }],
      })
      .expect(201);
    const userA = await anEndUser(t, clientA);
    const sessionA = await logIn(t, userA, {
      'User-Agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
    });
    const secondA = await logIn(t, userA, {
      'User-Agent': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15',
    });
    // Detection runs after the sign-in, off its request path.
    const anomalyId = await eventually(async () => {
      const list = await t.http().get('/user/security/anomalies/').set(bearer(secondA.access_token)).expect(200);
      const id = list.body.results[0]?.id as string | undefined;
      if (!id) throw new Error('tenant A has no anomaly to target: detection did not fire');
      return id;
    });
    const passkeyOptions = await t.http().post('/e/v1/auth/mfa/passkeys/options/').set(bearer(sessionA.access_token)).send({}).expect(200);
    const passkeyA = await t
      .http()
      .post('/e/v1/auth/mfa/passkeys/')
      .set(bearer(sessionA.access_token))
      .send({ name: 'A laptop', credential: new SoftAuthenticator(t.baseUrl).register(passkeyOptions.body) })
      .expect(201);
    const userB = await anEndUser(t, clientB);
    const sessionB = await logIn(t, userB);
    const sp = await aRegisteredSp(t, devA, wsA);
    const database = await anAvailableDatabase(t, devA, wsA, 'redis');
    const backup = await t
      .http()
      .post(`/e/v1/developer/databases/${database.id}/backups/`)
      .set(devA.auth)
      .send({ name: 'nightly' })
      .expect(202);
    await untilJobDone(t, devA, `/e/v1/developer/backups/${backup.body.id}/`);
    const restore = await t.http().post(`/e/v1/developer/backups/${backup.body.id}/restore/`).set(devA.auth).expect(202);
    const webhook = await t
      .http()
      .post('/developer/webhooks/')
      .set(devA.auth)
      .send({ workspace_id: wsA.id, url: 'http://127.0.0.1:9/hook', event_types: ['*'] })
      .expect(201);
    const delivery = await t.http().post(`/developer/webhooks/${webhook.body.id}/test/`).set(devA.auth).expect(202);
    const devTokenA = (await t.http().get('/developer/tokens/').set(devA.auth).expect(200)).body.results[0].id as string;
    const scimClientA = await t
      .http()
      .post('/developer/scim/clients/')
      .set(devA.auth)
      .send({ workspace_id: wsA.id, label: 'A' })
      .expect(201);
    const connectionA = await t
      .http()
      .post('/developer/external-providers/')
      .set(devA.auth)
      .send({
        workspace_id: wsA.id,
        name: 'A Okta',
        protocol: 'oidc',
        domains: [`a-${randomUUID().slice(0, 8)}.example`],
        oidc: { issuer: 'https://login.a.example/', client_id: 'a-client', client_secret: 'a-secret-0123456789' },
      })
      .expect(201);
    const [receiverA, receiverB] = [await aReceiver(t, devA, wsA), await aReceiver(t, devB, wsB)];
    const pollStreamA = await t
      .http()
      .post('/ssf/streams')
      .set(receiverA.auth)
      .send({ delivery: { method: 'urn:ietf:rfc:8936' } })
      .expect(201);
    a = {
      workspace: wsA.id,
      ssfReceiver: receiverA.id,
      ssfStream: pollStreamA.body.stream_id,
      connection: connectionA.body.id,
      connectionDomain: connectionA.body.domains[0],
      devId: devA.id,
      devToken: devTokenA,
      client: clientA.id,
      scimToken: scimA.id,
      scimUser: scimUser.body.id,
      scimGroup: scimGroup.body.id,
      session: sessionA.session_id,
      accessToken: sessionA.access_token,
      anomaly: anomalyId!,
      sp: sp.id,
      database: database.id,
      backup: backup.body.id,
      restore: restore.body.id,
      webhook: webhook.body.id,
      delivery: delivery.body.id,
      scimClient: scimClientA.body.id,
      scimClientSecret: scimClientA.body.secret.id,
      passkey: passkeyA.body.passkey.id,
    };
    credentialsOfB = { developer: devB.auth, scim: bearer(scimB.token), 'end-user': bearer(sessionB.access_token), ssf: receiverB.auth };
  }, 120000);
  afterAll(async () => {
    await deleteAll(t);
    await t.close();
  });

  const CASES: Record<string, () => Attempt> = {
    'DELETE /developer/tokens/:id': () => ({ path: `/developer/tokens/${a.devToken}/` }),
    'GET /e/v1/developer/workspaces/:id': () => ({ path: `/e/v1/developer/workspaces/${a.workspace}/` }),
    'PATCH /e/v1/developer/workspaces/:id': () => ({ path: `/e/v1/developer/workspaces/${a.workspace}/`, body: { name: 'taken over' } }),
    'DELETE /e/v1/developer/workspaces/:id': () => ({ path: `/e/v1/developer/workspaces/${a.workspace}/` }),
    'GET /e/v1/developer/workspaces/:id/members': () => ({ path: `/e/v1/developer/workspaces/${a.workspace}/members/` }),
    'POST /e/v1/developer/workspaces/:id/members': () => ({
      path: `/e/v1/developer/workspaces/${a.workspace}/members/`,
      body: { email: 'x@example.test', role: 'owner' },
    }),
    'DELETE /e/v1/developer/workspaces/:id/members/:developerId': () => ({
      path: `/e/v1/developer/workspaces/${a.workspace}/members/${a.devId}/`,
    }),
    'GET /e/v1/developer/workspaces/:id/sign-in-policy': () => ({ path: `/e/v1/developer/workspaces/${a.workspace}/sign-in-policy/` }),
    'PUT /e/v1/developer/workspaces/:id/sign-in-policy': () => ({
      path: `/e/v1/developer/workspaces/${a.workspace}/sign-in-policy/`,
      body: { new_device: 'block', new_ip: 'block' },
    }),
    'GET /developer/oauth/clients/:id': () => ({ path: `/developer/oauth/clients/${a.client}/` }),
    'PUT /developer/oauth/clients/:id': () => ({ path: `/developer/oauth/clients/${a.client}/`, body: { name: 'taken over' } }),
    'DELETE /developer/oauth/clients/:id': () => ({ path: `/developer/oauth/clients/${a.client}/` }),
    'POST /developer/oauth/clients/:id/secret': () => ({ path: `/developer/oauth/clients/${a.client}/secret/` }),
    'DELETE /developer/scim/tokens/:id': () => ({ path: `/developer/scim/tokens/${a.scimToken}/` }),
    'GET /scim/v2/Users/:id': () => ({ path: `/scim/v2/Users/${a.scimUser}` }),
    'PUT /scim/v2/Users/:id': () => ({
      path: `/scim/v2/Users/${a.scimUser}`,
      body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'taken@example.test', active: false },
    }),
    'PATCH /scim/v2/Users/:id': () => ({
      path: `/scim/v2/Users/${a.scimUser}`,
      body: { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'active', value: false }] },
    }),
    'DELETE /scim/v2/Users/:id': () => ({ path: `/scim/v2/Users/${a.scimUser}` }),
    'POST /scim/v2/Users/:id': () => ({ path: `/scim/v2/Users/${a.scimUser}`, body: {} }),
    'GET /scim/v2/Groups/:id': () => ({ path: `/scim/v2/Groups/${a.scimGroup}` }),
    'PUT /scim/v2/Groups/:id': () => ({
      path: `/scim/v2/Groups/${a.scimGroup}`,
      body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'taken', members: [] },
    }),
    'PATCH /scim/v2/Groups/:id': () => ({
      path: `/scim/v2/Groups/${a.scimGroup}`,
      body: { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'remove', path: 'members' }] },
    }),
    'DELETE /scim/v2/Groups/:id': () => ({ path: `/scim/v2/Groups/${a.scimGroup}` }),
    'POST /scim/v2/Groups/:id': () => ({ path: `/scim/v2/Groups/${a.scimGroup}`, body: {} }),
    'DELETE /user/security/sessions/:id': () => ({ path: `/user/security/sessions/${a.session}/` }),
    'PATCH /e/v1/auth/mfa/passkeys/:id': () => ({ path: `/e/v1/auth/mfa/passkeys/${a.passkey}/`, body: { name: 'taken over' } }),
    'DELETE /e/v1/auth/mfa/passkeys/:id': () => ({ path: `/e/v1/auth/mfa/passkeys/${a.passkey}/` }),
    'POST /user/security/anomalies/:id/ack': () => ({ path: `/user/security/anomalies/${a.anomaly}/ack/` }),
    'PUT /developer/email-templates/:name': () => ({
      path: '/developer/email-templates/registration_confirmation/',
      body: { workspace_id: a.workspace, subject: 'taken', from_name: 'x', body: 'x' },
    }),
    'GET /e/v1/developer/workspaces/:workspaceId/databases': () => ({ path: `/e/v1/developer/workspaces/${a.workspace}/databases/` }),
    'POST /e/v1/developer/workspaces/:workspaceId/databases': () => ({
      path: `/e/v1/developer/workspaces/${a.workspace}/databases/`,
      body: { display_name: 'x', engine: 'redis' },
    }),
    'GET /e/v1/developer/databases/:id': () => ({ path: `/e/v1/developer/databases/${a.database}/` }),
    'DELETE /e/v1/developer/databases/:id': () => ({ path: `/e/v1/developer/databases/${a.database}/` }),
    'GET /e/v1/developer/databases/:id/connection': () => ({ path: `/e/v1/developer/databases/${a.database}/connection/` }),
    'GET /e/v1/developer/databases/:id/metrics': () => ({ path: `/e/v1/developer/databases/${a.database}/metrics/` }),
    'GET /e/v1/developer/databases/:id/health': () => ({ path: `/e/v1/developer/databases/${a.database}/health/` }),
    'GET /e/v1/developer/databases/:id/keys': () => ({ path: `/e/v1/developer/databases/${a.database}/keys/` }),
    'POST /e/v1/developer/databases/:id/backups': () => ({ path: `/e/v1/developer/databases/${a.database}/backups/`, body: { name: 'x' } }),
    'GET /e/v1/developer/databases/:id/backups': () => ({ path: `/e/v1/developer/databases/${a.database}/backups/` }),
    'GET /e/v1/developer/backups/:id': () => ({ path: `/e/v1/developer/backups/${a.backup}/` }),
    'POST /e/v1/developer/backups/:id/restore': () => ({ path: `/e/v1/developer/backups/${a.backup}/restore/` }),
    'GET /e/v1/developer/restores/:id': () => ({ path: `/e/v1/developer/restores/${a.restore}/` }),
    'GET /developer/saml/sps/:id': () => ({ path: `/developer/saml/sps/${a.sp}/` }),
    'PUT /developer/saml/sps/:id': () => ({ path: `/developer/saml/sps/${a.sp}/`, body: { name: 'taken' } }),
    'DELETE /developer/saml/sps/:id': () => ({ path: `/developer/saml/sps/${a.sp}/` }),
    'GET /developer/webhooks/:id': () => ({ path: `/developer/webhooks/${a.webhook}/` }),
    'PATCH /developer/webhooks/:id': () => ({ path: `/developer/webhooks/${a.webhook}/`, body: { url: 'http://127.0.0.1:9/taken' } }),
    'DELETE /developer/webhooks/:id': () => ({ path: `/developer/webhooks/${a.webhook}/` }),
    'POST /developer/webhooks/:id/rotate-secret': () => ({ path: `/developer/webhooks/${a.webhook}/rotate-secret/` }),
    'POST /developer/webhooks/:id/test': () => ({ path: `/developer/webhooks/${a.webhook}/test/` }),
    'GET /developer/webhooks/:id/deliveries': () => ({ path: `/developer/webhooks/${a.webhook}/deliveries/` }),
    'POST /developer/webhook-deliveries/:id/retry': () => ({ path: `/developer/webhook-deliveries/${a.delivery}/retry/` }),
    'GET /developer/scim/clients/:id': () => ({ path: `/developer/scim/clients/${a.scimClient}/` }),
    'DELETE /developer/scim/clients/:id': () => ({ path: `/developer/scim/clients/${a.scimClient}/` }),
    'POST /developer/scim/clients/:id/secrets': () => ({ path: `/developer/scim/clients/${a.scimClient}/secrets/`, body: {} }),
    'DELETE /developer/scim/clients/:id/secrets/:secretId': () => ({
      path: `/developer/scim/clients/${a.scimClient}/secrets/${a.scimClientSecret}/`,
    }),
    'PUT /developer/scim/clients/:id/keys': () => ({
      path: `/developer/scim/clients/${a.scimClient}/keys/`,
      body: { jwks_uri: 'https://keys.example.test/jwks.json' },
    }),
    'PUT /developer/scim/clients/:id/federation': () => ({
      path: `/developer/scim/clients/${a.scimClient}/federation/`,
      body: { issuer: 'https://x.example.test', jwks_uri: 'https://x.example.test/jwks', subject: 'x' },
    }),
    'GET /developer/external-providers/:id': () => ({ path: `/developer/external-providers/${a.connection}/` }),
    'PATCH /developer/external-providers/:id': () => ({
      path: `/developer/external-providers/${a.connection}/`,
      body: { name: 'taken over' },
    }),
    'DELETE /developer/external-providers/:id': () => ({ path: `/developer/external-providers/${a.connection}/` }),
    'GET /developer/external-providers/:id/attempts': () => ({ path: `/developer/external-providers/${a.connection}/attempts/` }),
    'POST /developer/external-providers/:id/domains/:domain/verify': () => ({
      path: `/developer/external-providers/${a.connection}/domains/${a.connectionDomain}/verify`,
    }),
    'GET /developer/ssf/receivers/:id': () => ({ path: `/developer/ssf/receivers/${a.ssfReceiver}/` }),
    'DELETE /developer/ssf/receivers/:id': () => ({ path: `/developer/ssf/receivers/${a.ssfReceiver}/` }),
    'POST /ssf/poll/:streamId': () => ({ path: `/ssf/poll/${a.ssfStream}`, body: { returnImmediately: true } }),
    'GET /developer/directory/users/:id': () => ({ path: `/developer/directory/users/${a.scimUser}/?workspace_id=${a.workspace}` }),
  };
  /** Collection routes that name the workspace in the query or body instead of the path. */
  const BY_WORKSPACE: [Kind, string, string, () => Attempt][] = [
    ['developer', 'GET', 'oauth clients', () => ({ path: `/developer/oauth/clients/?workspace_id=${a.workspace}` })],
    ['developer', 'POST', 'oauth clients', () => ({ path: '/developer/oauth/clients/', body: { workspace_id: a.workspace, name: 'x' } })],
    ['developer', 'GET', 'scim tokens', () => ({ path: `/developer/scim/tokens/?workspace_id=${a.workspace}` })],
    ['developer', 'POST', 'scim tokens', () => ({ path: '/developer/scim/tokens/', body: { workspace_id: a.workspace, label: 'x' } })],
    ['developer', 'GET', 'scim clients', () => ({ path: `/developer/scim/clients/?workspace_id=${a.workspace}` })],
    ['developer', 'POST', 'scim clients', () => ({ path: '/developer/scim/clients/', body: { workspace_id: a.workspace, label: 'x' } })],
    ['developer', 'GET', 'email templates', () => ({ path: `/developer/email-templates/?workspace_id=${a.workspace}` })],
    ['developer', 'GET', 'saml sps', () => ({ path: `/developer/saml/sps/?workspace_id=${a.workspace}` })],
    [
      'developer',
      'POST',
      'saml sps',
      () => ({
        path: '/developer/saml/sps/',
        body: { workspace_id: a.workspace, name: 'x', sp_entity_id: `https://x-${randomUUID()}.example`, acs_url: 'https://x.example/acs' },
      }),
    ],
    ['developer', 'GET', 'audit', () => ({ path: `/developer/audit/?workspace_id=${a.workspace}` })],
    ['developer', 'GET', 'audit export', () => ({ path: `/developer/audit/export/?workspace_id=${a.workspace}` })],
    ['developer', 'GET', 'audit verify', () => ({ path: `/developer/audit/verify/?workspace_id=${a.workspace}` })],
    ['developer', 'GET', 'audit checkpoints', () => ({ path: `/developer/audit/checkpoints/?workspace_id=${a.workspace}` })],
    ['developer', 'GET', 'ssf receivers', () => ({ path: `/developer/ssf/receivers/?workspace_id=${a.workspace}` })],
    ['developer', 'POST', 'ssf receivers', () => ({ path: '/developer/ssf/receivers/', body: { workspace_id: a.workspace, name: 'x' } })],
    ['ssf', 'GET', 'ssf stream', () => ({ path: `/ssf/streams?stream_id=${a.ssfStream}` })],
    ['ssf', 'GET', 'ssf stream status', () => ({ path: `/ssf/status?stream_id=${a.ssfStream}` })],
    ['ssf', 'POST', 'ssf stream status', () => ({ path: '/ssf/status', body: { stream_id: a.ssfStream, status: 'disabled' } })],
    ['ssf', 'PATCH', 'ssf stream', () => ({ path: '/ssf/streams', body: { stream_id: a.ssfStream, description: 'taken over' } })],
    ['ssf', 'PUT', 'ssf stream', () => ({ path: '/ssf/streams', body: { stream_id: a.ssfStream } })],
    ['ssf', 'DELETE', 'ssf stream', () => ({ path: `/ssf/streams?stream_id=${a.ssfStream}` })],
    [
      'ssf',
      'POST',
      'ssf subject add',
      () => ({ path: '/ssf/subjects/add', body: { stream_id: a.ssfStream, subject: { format: 'opaque', id: 'x' } } }),
    ],
    [
      'ssf',
      'POST',
      'ssf subject remove',
      () => ({ path: '/ssf/subjects/remove', body: { stream_id: a.ssfStream, subject: { format: 'opaque', id: 'x' } } }),
    ],
    ['ssf', 'POST', 'ssf verification', () => ({ path: '/ssf/verify', body: { stream_id: a.ssfStream } })],
    ['developer', 'GET', 'webhooks', () => ({ path: `/developer/webhooks/?workspace_id=${a.workspace}` })],
    [
      'developer',
      'POST',
      'webhooks',
      () => ({ path: '/developer/webhooks/', body: { workspace_id: a.workspace, url: 'http://127.0.0.1:9/x', event_types: ['*'] } }),
    ],
  ];

  it('has a case for every id-taking route the router serves', () => {
    const idRoutes = listRoutes(t.app)
      .filter((r) => r.params.length > 0)
      .map((r) => `${r.method} ${r.path}`);
    const uncovered = idRoutes.filter((key) => !CASES[key] && !NOT_TENANT_DATA.test(key));
    expect(uncovered).toEqual([]);
  });

  it('answers 404 (405 where the method never applies) to tenant B on every route, and A’s objects stay as they were', async () => {
    const kindOf = new Map(listRoutes(t.app).map((r) => [`${r.method} ${r.path}`, r.auth as Kind]));
    const attempts: [string, Kind, string, Attempt][] = [
      // POST on a SCIM resource URL has no route (the router answers 405 with Allow), so it is not in the route list.
      ...Object.entries(CASES).map(
        ([key, make]) =>
          [key, kindOf.get(key) ?? (key.startsWith('POST /scim/v2/') ? 'scim' : kindOf.get(key)!), key.split(' ')[0], make()] as [
            string,
            Kind,
            string,
            Attempt,
          ],
      ),
      ...BY_WORKSPACE.map(
        ([kind, method, what, make]) => [`${method} ${what} of A`, kind, method, make()] as [string, Kind, string, Attempt],
      ),
    ];
    const outcomes: string[] = [];
    for (const [label, kind, method, attempt] of attempts) {
      const req = t.http()[method.toLowerCase() as 'post'](attempt.path).set(credentialsOfB[kind]);
      const res = attempt.body ? await req.send(attempt.body) : await req;
      // POST on a SCIM resource URL is not an operation at all: 405 says so without revealing the object.
      const expected = label.startsWith('POST /scim/v2/') && label.endsWith('/:id') ? [404, 405] : [404];
      if (!expected.includes(res.status)) outcomes.push(`${label} -> ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
    }
    expect(outcomes).toEqual([]);

    const readA = (path: string, auth = devA.auth) => t.http().get(path).set(auth);
    expect((await readA(`/e/v1/developer/workspaces/${a.workspace}/`).expect(200)).body.name).not.toBe('taken over');
    expect((await readA(`/developer/oauth/clients/${a.client}/`).expect(200)).body.name).not.toBe('taken over');
    await readA(`/developer/saml/sps/${a.sp}/`).expect(200);
    const connection = (await readA(`/developer/external-providers/${a.connection}/`).expect(200)).body;
    expect(connection).toMatchObject({ name: 'A Okta', domain_verifications: [{ status: 'pending', checked_at: null }] });
    const [passkeyA] = await t.dataSource.query(`SELECT name FROM end_user_passkeys WHERE id = $1`, [a.passkey]);
    expect(passkeyA?.name).toBe('A laptop');
    expect((await readA(`/developer/webhooks/${a.webhook}/`).expect(200)).body.url).toBe('http://127.0.0.1:9/hook');
    const receiverA = (await readA(`/developer/ssf/receivers/${a.ssfReceiver}/`).expect(200)).body;
    expect(receiverA.stream).toMatchObject({ stream_id: a.ssfStream, status: 'enabled' });
    expect((await readA(`/e/v1/developer/databases/${a.database}/`).expect(200)).body.status).toBe('available');
    const scim = (await readA(`/developer/scim/tokens/?workspace_id=${a.workspace}`).expect(200)).body.results as {
      id: string;
      is_active: boolean;
    }[];
    expect(scim.find((s) => s.id === a.scimToken)?.is_active).toBe(true);
    const scimClientA = (await readA(`/developer/scim/clients/${a.scimClient}/`).expect(200)).body;
    expect(scimClientA).toMatchObject({ revoked_at: null, keys: null, federation: null, secrets: [{ revoked_at: null }] });
    await readA('/developer/tokens/').expect(200);
    await readA('/user/security/sessions/', bearer(a.accessToken)).expect(200);
    const members = (await readA(`/e/v1/developer/workspaces/${a.workspace}/members/`).expect(200)).body.results as unknown[];
    expect(members).toHaveLength(1);
    expect((await readA(`/e/v1/developer/workspaces/${a.workspace}/sign-in-policy/`).expect(200)).body).toMatchObject({
      new_device: 'allow',
      new_ip: 'allow',
    });
    const audit = (await readA(`/developer/audit/?workspace_id=${a.workspace}&actor_type=developer&limit=100`).expect(200)).body
      .results as { actor_id: string }[];
    expect(audit.every((e) => e.actor_id === devA.id)).toBe(true);
  }, 60000);
});
