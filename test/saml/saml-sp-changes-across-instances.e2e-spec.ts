import type { Tenant } from '../end-users/support';
import type { TestApp } from '../support/app';
import { craftedRequest, formFields } from './support/saml-sso.helpers';
import { aSignedInBrowser, twoInstancesForSuite } from './support/two-instances';

/**
 * SSO keeps the SP registrations it read in each instance's credential cache (decision 1025). A change to a
 * registration is answered only once every instance has dropped the SP as it was: the very next SSO on any
 * instance sees the new ACS URL, the SP disabled, or the SP gone.
 */
describe('SP registration changes seen by SSO on every instance', () => {
  const suite = twoInstancesForSuite();
  let t: TestApp;
  let other: TestApp;
  let tenant: Tenant;
  beforeAll(() => ({ t, other, tenant } = suite));

  /** An SP and a browser signed in at the first instance, answered once by each instance (so each has read the SP). */
  async function servedByBoth() {
    const { sp, cookie } = await aSignedInBrowser(suite);
    for (const app of [t, other]) await sso(app, sp.entityId, cookie).expect(200);
    return { sp, cookie };
  }

  const sso = (app: TestApp, entityId: string, cookie: string, acsUrl?: string) =>
    app
      .http()
      .get(craftedRequest(entityId, acsUrl ? { acsUrl } : {}))
      .set('Cookie', cookie);
  const update = (app: TestApp, id: string, body: Record<string, unknown>) =>
    app.http().put(`/developer/saml/sps/${id}/`).set(tenant.dev.auth).send(body).expect(200);

  it('posts to the new ACS URL on the other instance right after the change, and refuses the old one', async () => {
    const { sp, cookie } = await servedByBoth();
    const moved = `${sp.acsUrl}-moved`;
    await update(t, sp.id, { acs_url: moved });
    expect(formFields((await sso(other, sp.entityId, cookie).expect(200)).text).action).toBe(moved);
    const old = await sso(other, sp.entityId, cookie, sp.acsUrl).expect(400);
    expect(old.text).toContain('does not match the registered one');
    expect(formFields((await sso(t, sp.entityId, cookie, moved).expect(200)).text).action).toBe(moved);
  });

  it('refuses a disabled SP on both instances at once, and serves it again once enabled', async () => {
    const { sp, cookie } = await servedByBoth();
    await update(other, sp.id, { is_active: false });
    for (const app of [t, other]) expect((await sso(app, sp.entityId, cookie).expect(400)).text).toContain('is disabled');
    await update(t, sp.id, { is_active: true });
    for (const app of [other, t]) await sso(app, sp.entityId, cookie).expect(200);
  });

  it('refuses a deleted SP on the other instance at once', async () => {
    const { sp, cookie } = await servedByBoth();
    await t.http().delete(`/developer/saml/sps/${sp.id}/`).set(tenant.dev.auth).expect(204);
    for (const app of [other, t]) {
      expect((await sso(app, sp.entityId, cookie).expect(400)).text).toContain(`No service provider is registered with the entity id`);
    }
  });

  it('asserts the attribute mapping as changed on the other instance', async () => {
    const { sp, cookie } = await servedByBoth();
    await update(t, sp.id, { attribute_mapping: { mail: 'email' } });
    const xml = Buffer.from(formFields((await sso(other, sp.entityId, cookie).expect(200)).text).SAMLResponse, 'base64').toString('utf8');
    expect(xml).toContain('Name="mail"');
    expect(xml).not.toContain('Name="firstName"');
  });
});
