import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import { MIGRATIONS } from '../../src/database/migrations';
import { signInAt } from '../saml/support/browser-flow';
import { formFields } from '../saml/support/saml-sso.helpers';
import { samlEnv, testIdpKeyPair } from '../saml/support/saml-env';
import { nodeSamlSp } from '../saml/support/saml-verifiers';
import { AppProcess, spawnApp } from '../support/app-process';
import { eventually } from '../support/eventually';
import { ADMIN_URL, databasePrefix, databaseUrl, recreateDatabase, withAdmin } from '../support/databases';
import { PgBouncer, startPgBouncer } from '../support/pgbouncer';
import { setUpTenantAt } from '../support/remote-tenant';
import { codeIn, startSmtpReceiver, SmtpReceiver } from '../support/smtp-receiver';
import { testRedisPrefix } from '../support/redis-keys';

const SCIM_USER = 'urn:ietf:params:scim:schemas:core:2.0:User';

/**
 * Two service processes behind Debian's PgBouncer (1.18) in transaction mode, as docs/scaling.md
 * describes the first step past one machine: A also has a direct connection
 * (DATABASE_DIRECT_URL) for its migrations' lock and its credential cache's LISTEN; B has only
 * the pooler, so it migrates in one transaction and runs with its credential cache off. The pooler
 * has fewer server connections than the two instances have clients, so consecutive statements of
 * one client land on different server connections: a named prepared statement or any session
 * state carried from one transaction to the next would fail or leak here.
 */
describe('two instances behind PgBouncer in transaction mode', () => {
  let bouncer: PgBouncer;
  let smtp: SmtpReceiver;
  let a: AppProcess;
  let b: AppProcess;
  const database = `${databasePrefix()}_pgbouncer`;
  const direct = databaseUrl(database);
  const http = (app: AppProcess) => request(app.baseUrl);
  const both = () => [a, b];

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    // An empty database: both instances migrate it as they start together.
    await withAdmin((client) => recreateDatabase(client, database));
    const upstream = new URL(ADMIN_URL);
    bouncer = await startPgBouncer({ host: upstream.hostname, port: Number(upstream.port || 5432), user: upstream.username }, 3);
    const shared = {
      DATABASE_URL: bouncer.urlFor(direct),
      DATABASE_POOLER: 'transaction',
      DATABASE_POOL_SIZE: '4',
      REDIS_KEY_PREFIX: testRedisPrefix(),
      AUTH_JWT_SECRET: randomBytes(32).toString('base64url'),
      SECRETS_ENCRYPTION_KEY: `k1:${randomBytes(32).toString('base64')}`,
      SMTP_URL: smtp.url,
      ...samlEnv(),
      // To stdout, where the test reads what each instance said at boot.
      LOG_FILE: '',
      LOG_LEVEL: 'info',
    };
    // Both start together (the migrations race); one that started is stopped by afterAll even if the other failed.
    const [startedA, startedB] = await Promise.allSettled([spawnApp({ ...shared, DATABASE_DIRECT_URL: direct }), spawnApp(shared)]);
    if (startedA.status === 'fulfilled') a = startedA.value;
    if (startedB.status === 'fulfilled') b = startedB.value;
    for (const started of [startedA, startedB]) {
      if (started.status === 'rejected') throw started.reason;
    }
  }, 180000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await bouncer?.stop();
    await smtp?.stop();
    await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
  }, 60000);

  async function directQuery<Row extends object>(sql: string): Promise<Row[]> {
    const client = new Client({ connectionString: direct });
    await client.connect();
    try {
      return (await client.query<Row>(sql)).rows;
    } finally {
      await client.end();
    }
  }

  it('applies each migration once although both instances started together, and says at boot what the pooler turns off', async () => {
    const rows = await directQuery<{ name: string; runs: number }>(
      `SELECT name, count(*)::int AS runs FROM schema_migrations GROUP BY name`,
    );
    expect(rows).toHaveLength(MIGRATIONS.length);
    for (const row of rows) expect(row.runs).toBe(1);
    for (const app of both()) expect((await fetch(`${app.baseUrl}/health/ready`)).status).toBe(200);
    // The log is written asynchronously (flushed every 250 ms), so a busy machine may show it a little after /health/live.
    await eventually(() => {
      const bLog = b.logs.join('\n');
      expect(bLog).toMatch(/without DATABASE_DIRECT_URL: migrations run in one transaction/);
      expect(bLog).toMatch(/credential cache off/);
    });
    await eventually(() => expect(a.logs.join('\n')).toMatch(/identity service listening on/));
    expect(a.logs.join('\n')).not.toMatch(/credential cache off/);
  });

  it('serves SCIM reads and writes through either instance, each seeing the other’s writes', async () => {
    const { auth, workspaceId } = await setUpTenantAt(a.baseUrl);
    const minted = await http(b).post('/developer/scim/tokens/').set(auth).send({ workspace_id: workspaceId, label: 'idp' }).expect(201);
    const scim = { Authorization: `Bearer ${minted.body.token}` };
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const writer = i % 2 ? a : b;
      const created = await http(writer)
        .post('/scim/v2/Users')
        .set(scim)
        .send({ schemas: [SCIM_USER], userName: `pgb-${i}-${randomUUID().slice(0, 6)}@example.test`, name: { givenName: `G${i}` } })
        .expect(201);
      ids.push(created.body.id as string);
      const reader = i % 2 ? b : a;
      const read = await http(reader).get(`/scim/v2/Users/${created.body.id}`).set(scim).expect(200);
      expect(read.body.userName).toBe(created.body.userName);
      const found = await http(reader)
        .get('/scim/v2/Users')
        .query({ filter: `userName eq "${created.body.userName}"` })
        .set(scim)
        .expect(200);
      expect(found.body.totalResults).toBe(1);
    }
    await http(a)
      .patch(`/scim/v2/Users/${ids[0]}`)
      .set(scim)
      .send({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'active', value: false }] })
      .expect(200);
    expect((await http(b).get(`/scim/v2/Users/${ids[0]}`).set(scim).expect(200)).body.active).toBe(false);
    const list = await http(b).get('/scim/v2/Users').set(scim).expect(200);
    expect(list.body.totalResults).toBe(ids.length);
  }, 60000);

  it('refuses on A a session signed in on B and revoked through B, on the very next call', async () => {
    const { clientId } = await setUpTenantAt(b.baseUrl);
    const email = `user-${randomUUID().slice(0, 8)}@example.test`;
    await http(a).post('/e/v1/auth/register/').send({ client_id: clientId, email, password: 'password-123' }).expect(201);
    const session = (await http(b).post('/e/v1/auth/login/').send({ client_id: clientId, email, password: 'password-123' }).expect(200))
      .body as { access_token: string; session_id: string };
    const bearer = { Authorization: `Bearer ${session.access_token}` };
    await http(a).get('/user/security/sessions/').set(bearer).expect(200);
    await http(b).delete(`/user/security/sessions/${session.session_id}/`).set(bearer).expect(204);
    await http(a).get('/user/security/sessions/').set(bearer).expect(401);
    await http(b).get('/user/security/sessions/').set(bearer).expect(401);
  }, 60000);

  // A caches tokens and learns of revocations by NOTIFY on its direct connection; the NOTIFY is
  // sent inside the revoking transaction through the pooler (decision 0105), and B answers the
  // revocation once A has acknowledged its eviction (decision 0214): A refuses the token at once.

  it('refuses a revoked SCIM token on the next call: on B (cache off) at once, on A (cache on) as soon as the revocation is answered', async () => {
    const { auth, workspaceId } = await setUpTenantAt(a.baseUrl);
    const mint = async () =>
      (await http(a).post('/developer/scim/tokens/').set(auth).send({ workspace_id: workspaceId, label: 'idp' }).expect(201)).body as {
        id: string;
        token: string;
      };
    const first = await mint();
    for (let i = 0; i < 3; i++) {
      for (const app of both()) {
        await http(app)
          .get('/scim/v2/Users')
          .set({ Authorization: `Bearer ${first.token}` })
          .expect(200);
      }
    }
    await http(a).delete(`/developer/scim/tokens/${first.id}/`).set(auth).expect(200);
    await http(b)
      .get('/scim/v2/Users')
      .set({ Authorization: `Bearer ${first.token}` })
      .expect(401);

    const second = await mint();
    for (let i = 0; i < 3; i++) {
      await http(a)
        .get('/scim/v2/Users')
        .set({ Authorization: `Bearer ${second.token}` })
        .expect(200);
    }
    await http(b).delete(`/developer/scim/tokens/${second.id}/`).set(auth).expect(200);
    await http(a)
      .get('/scim/v2/Users')
      .set({ Authorization: `Bearer ${second.token}` })
      .expect(401);
  }, 60000);

  it('signs a user in to a SAML service provider registered through the other instance', async () => {
    const { auth, workspaceId, clientId } = await setUpTenantAt(a.baseUrl);
    const email = `saml-${randomUUID().slice(0, 8)}@example.test`;
    const password = `pw-${randomUUID()}`;
    await http(a).post('/e/v1/auth/register/').send({ client_id: clientId, email, password, first_name: 'Ada' }).expect(201);
    const mail = await smtp.waitFor(email, { timeoutMs: 20000 });
    await http(b)
      .post('/e/v1/email/verify/')
      .send({ email, code: codeIn(mail) })
      .expect(200);
    const entityId = `https://sp-${randomUUID().slice(0, 8)}.example.test/metadata`;
    const acsUrl = `https://sp.example.test/saml/acs/${randomUUID().slice(0, 6)}`;
    const registered = await http(a)
      .post('/developer/saml/sps/')
      .set(auth)
      .send({ workspace_id: workspaceId, name: 'SP', sp_entity_id: entityId, acs_url: acsUrl, attribute_mapping: { email: 'email' } })
      .expect(201);
    const sp = nodeSamlSp({
      entityId,
      acsUrl,
      idpSsoUrl: samlEnv().SAML_IDP_SSO_URL,
      idpCert: testIdpKeyPair().certPem,
      signedAssertion: registered.body.sign_assertions,
    });
    const url = new URL(await sp.saml.getAuthorizeUrlAsync('', undefined, {}));
    const browser = request.agent(b.baseUrl);
    const start = await browser.get(`${url.pathname}${url.search}`).expect(302);
    const next = await signInAt(browser, start.headers.location as string, { id: '', email, password, clientId });
    const page = await browser.get(next).expect(200);
    const form = formFields(page.text);
    expect(form.action).toBe(acsUrl);
    const { profile } = await sp.saml.validatePostResponseAsync({ SAMLResponse: form.SAMLResponse });
    expect(profile).toMatchObject({ nameID: email, email });
  }, 60000);

  it('runs each job once although both workers compete for them', async () => {
    const { clientId } = await setUpTenantAt(b.baseUrl);
    const emails = Array.from({ length: 6 }, (_, i) => `once-${i}-${randomUUID().slice(0, 8)}@example.test`);
    await Promise.all(
      emails.map((email, i) =>
        http(i % 2 ? a : b)
          .post('/e/v1/auth/register/')
          .send({ client_id: clientId, email, password: 'password-123' })
          .expect(201),
      ),
    );
    for (const email of emails) await smtp.waitFor(email, { timeoutMs: 20000 });
    // Bounded wait for the queue to be empty, then no job may have run twice.
    const deadline = Date.now() + 20000;
    let open = 1;
    while (open > 0 && Date.now() < deadline) {
      [{ open }] = await directQuery<{ open: number }>(`SELECT count(*)::int AS open FROM jobs WHERE status <> 'completed'`);
      if (open > 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(open).toBe(0);
    const [{ rerun }] = await directQuery<{ rerun: number }>(`SELECT count(*)::int AS rerun FROM jobs WHERE attempts <> 1`);
    expect(rerun).toBe(0);
    for (const email of emails) expect(smtp.messagesTo(email)).toHaveLength(1);
  }, 60000);

  it('left no error from the pooler in either instance’s log', () => {
    const failures = [...a.logs, ...b.logs].filter((line) => /prepared statement "|unsupported startup parameter|"level":50/.test(line));
    expect(failures).toEqual([]);
  });
});
