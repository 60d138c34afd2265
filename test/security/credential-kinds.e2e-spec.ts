import { createTestApp, TestApp } from '../support/app';
import { anEndUser, aTenant, bearer, logIn, Tenant } from '../end-users/support';
import { aScimToken } from '../scim/scim-support';

/** A credential of one surface sent to another gets a 401 that says which credential the route takes (issue 13, item 12). */
describe('401s name the credential a surface expects', () => {
  let t: TestApp;
  let tenant: Tenant;
  let scimToken: string;
  let endUserToken: string;
  beforeAll(async () => {
    t = await createTestApp();
    tenant = await aTenant(t);
    scimToken = (await aScimToken(t, tenant.dev, tenant.ws)).token;
    endUserToken = (await logIn(t, await anEndUser(t, tenant.client))).access_token;
  });
  afterAll(() => t.close());

  it('says a SCIM token (scim_…) is expected when /scim/v2 gets a developer token or an end-user token', async () => {
    for (const [token, sent] of [
      [tenant.dev.token, /developer token \(dat_…\)/],
      [endUserToken, /end user's access token/],
    ] as const) {
      const res = await t.http().get('/scim/v2/Users').set(bearer(token)).expect(401);
      expect(res.body).toMatchObject({ status: '401' });
      expect(res.body.detail).toMatch(sent);
      expect(res.body.detail).toMatch(/expects a SCIM token \(Authorization: Bearer scim_…\)/);
    }
    const missing = await t.http().get('/scim/v2/Users').expect(401);
    expect(missing.body.detail).toMatch(/^Missing credentials: .*scim_…/);
    // The right kind, but not a live token: no claim about another surface.
    const bad = await t.http().get('/scim/v2/Users').set(bearer('scim_not-a-real-token')).expect(401);
    expect(bad.body.detail).toMatch(/^Invalid, expired or revoked credentials: .*scim_…/);
  });

  it('says a developer token (dat_…) is expected when /developer/ gets a SCIM token', async () => {
    const res = await t.http().get(`/developer/scim/tokens/?workspace_id=${tenant.ws.id}`).set(bearer(scimToken)).expect(401);
    expect(res.body).toEqual({
      error: 'unauthorized',
      message: expect.stringMatching(/SCIM token \(scim_…\).*expects a developer token \(Authorization: Bearer dat_…\)/),
    });
  });

  it('says an end-user access token is expected when the end-user API gets a SCIM or developer token', async () => {
    for (const token of [scimToken, tenant.dev.token]) {
      const res = await t.http().get('/user/security/sessions/').set(bearer(token)).expect(401);
      expect(res.body.message).toMatch(/expects an end user's access token/);
    }
  });

  it('still lets each credential in where it belongs', async () => {
    await t.http().get('/scim/v2/Users').set(bearer(scimToken)).expect(200);
    await t.http().get(`/developer/scim/tokens/?workspace_id=${tenant.ws.id}`).set(tenant.dev.auth).expect(200);
    await t.http().get('/user/security/sessions/').set(bearer(endUserToken)).expect(200);
  });
});
