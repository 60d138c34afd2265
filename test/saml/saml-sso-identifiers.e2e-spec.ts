import { createTestApp, TestApp } from '../support/app';
import { startSmtpReceiver, SmtpReceiver } from '../support/smtp-receiver';
import { aTenant, anEndUser, Tenant, TestEndUser } from '../end-users/support';
import { Agent, newBrowser, ssoAs } from './support/browser-flow';
import { aRegisteredSp, auditEvents, authorizePath, formFields, RegisteredSp } from './support/saml-sso.helpers';
import { samlEnv } from './support/saml-env';

const PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';
const TRANSIENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';
const UNSPECIFIED = 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified';

/** What an SP keys its accounts on, read by node-saml from a validated Response. */
async function signIn(browser: Agent, sp: RegisteredSp, user: TestEndUser) {
  const page = await ssoAs(browser, (await authorizePath(sp)).path, user);
  expect(page.status).toBe(200);
  const { profile } = await sp.saml.validatePostResponseAsync({ SAMLResponse: formFields(page.text).SAMLResponse });
  return { nameID: profile!.nameID, format: profile!.nameIDFormat, sessionIndex: profile!.sessionIndex as string };
}

describe('SAML NameID and SessionIndex: unique per user, pairwise per SP', () => {
  let t: TestApp;
  let tenant: Tenant;
  let smtp: SmtpReceiver;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    t = await createTestApp({ ...samlEnv(), SMTP_URL: smtp.url });
    tenant = await aTenant(t);
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  const register = (body: Record<string, unknown>) =>
    t
      .http()
      .post('/developer/saml/sps/')
      .set(tenant.dev.auth)
      .send({
        workspace_id: tenant.ws.id,
        sp_entity_id: `https://sp-${Math.random().toString(36).slice(2)}.example.test/`,
        acs_url: 'https://sp.example.test/acs',
        ...body,
      });

  it.each(['first_name', 'last_name', 'display_name', 'email'])(
    'refuses name_id_attribute %s for the persistent format (400)',
    async (field) => {
      const res = await register({ name_id_format: PERSISTENT, name_id_attribute: field }).expect(400);
      expect(res.body.error).toBe('validation_failed');
      expect(res.body.details.name_id_attribute[0]).toMatch(/persistent NameID format needs name_id_attribute "id"/);
    },
  );

  it('refuses names as an unspecified NameID, and refuses switching an SP to persistent with a name (PUT)', async () => {
    const res = await register({ name_id_format: UNSPECIFIED, name_id_attribute: 'display_name' }).expect(400);
    expect(res.body.details.name_id_attribute[0]).toMatch(/display_name is not unique/);
    await register({ name_id_format: UNSPECIFIED, name_id_attribute: 'email' }).expect(201);
    const sp = (await register({ name_id_format: UNSPECIFIED, name_id_attribute: 'id' }).expect(201)).body as { id: string };
    const put = await t
      .http()
      .put(`/developer/saml/sps/${sp.id}/`)
      .set(tenant.dev.auth)
      .send({ name_id_format: PERSISTENT, name_id_attribute: 'first_name' })
      .expect(400);
    expect(put.body.details.name_id_attribute).toBeDefined();
  });

  it('registers persistent and transient with name_id_attribute "id" when none is sent', async () => {
    expect((await register({ name_id_format: PERSISTENT }).expect(201)).body.name_id_attribute).toBe('id');
    expect((await register({ name_id_format: TRANSIENT }).expect(201)).body.name_id_attribute).toBe('id');
  });

  it('gives two users with the same name different, opaque persistent NameIDs, stable per SP and different at another SP', async () => {
    const spA = await aRegisteredSp(t, tenant.dev, tenant.ws, { name_id_format: PERSISTENT });
    const spB = await aRegisteredSp(t, tenant.dev, tenant.ws, { name_id_format: PERSISTENT });
    const alice1 = await anEndUser(t, tenant.client, { smtp, firstName: 'Alice' });
    const alice2 = await anEndUser(t, tenant.client, { smtp, firstName: 'Alice' });

    const browser1 = newBrowser(t);
    const first = await signIn(browser1, spA, alice1);
    const other = await signIn(newBrowser(t), spA, alice2);
    expect(first.format).toBe(PERSISTENT);
    expect(first.nameID).not.toBe(other.nameID);
    for (const id of [first.nameID, other.nameID]) {
      expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(id).not.toContain('Alice');
    }
    expect(first.nameID).not.toContain(alice1.id);

    // Stable: the same user at the same SP, in a later session, gets the same value.
    expect((await signIn(newBrowser(t), spA, alice1)).nameID).toBe(first.nameID);
    // Pairwise: the same user at another SP gets an unrelated value.
    const atB = await signIn(browser1, spB, alice1);
    expect(atB.nameID).not.toBe(first.nameID);
    expect(atB.nameID).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('gives a transient NameID that is new for every assertion', async () => {
    const sp = await aRegisteredSp(t, tenant.dev, tenant.ws, { name_id_format: TRANSIENT });
    const user = await anEndUser(t, tenant.client, { smtp });
    const browser = newBrowser(t);
    const one = await signIn(browser, sp, user);
    const two = await signIn(browser, sp, user);
    expect(one.format).toBe(TRANSIENT);
    expect(one.nameID).not.toBe(two.nameID);
    expect(one.nameID).not.toContain(user.id);
  });

  it('gives each SP its own SessionIndex for one session, never the session id', async () => {
    const spA = await aRegisteredSp(t, tenant.dev, tenant.ws, { name_id_format: PERSISTENT });
    const spB = await aRegisteredSp(t, tenant.dev, tenant.ws, { name_id_format: PERSISTENT });
    const user = await anEndUser(t, tenant.client, { smtp });
    const browser = newBrowser(t);
    const a1 = await signIn(browser, spA, user);
    const b1 = await signIn(browser, spB, user);
    const a2 = await signIn(browser, spA, user);
    expect(a1.sessionIndex).not.toBe(b1.sessionIndex);
    // The same session at the same SP: the same index (an SP can match a later logout to it).
    expect(a2.sessionIndex).toBe(a1.sessionIndex);

    const successes = await auditEvents(t, tenant.dev, tenant.ws, 'saml_sso_success');
    const sessionIds = new Set(successes.filter((e) => e.actor_id === user.id).map((e) => e.metadata.session_id));
    expect(sessionIds.size).toBe(1);
    const [sessionId] = [...sessionIds] as string[];
    expect([a1.sessionIndex, b1.sessionIndex]).not.toContain(sessionId);
    expect(successes.find((e) => e.actor_id === user.id && e.target_id === spA.id)?.metadata.session_index).toBe(a1.sessionIndex);

    // Another session of the same user at the same SP: another index.
    expect((await signIn(newBrowser(t), spA, user)).sessionIndex).not.toBe(a1.sessionIndex);
  });
});
