import { DOMParser } from '@xmldom/xmldom';
import { SamlStatusError } from '@node-saml/node-saml';
import { Clock } from '../../src/common/clock';
import { createTestApp, TestApp } from '../support/app';
import { startSmtpReceiver, SmtpReceiver } from '../support/smtp-receiver';
import { withTotp, TestAuthenticator } from '../end-users/mfa-support';
import { SoftAuthenticator } from '../end-users/soft-authenticator';
import { aTenant, anEndUser, bearer, logIn, Tenant, TestEndUser } from '../end-users/support';
import { Agent, newBrowser, signInAt, ssoAs } from './support/browser-flow';
import { aRegisteredSp, auditEvents, formFields, RegisteredSp, spRequest } from './support/saml-sso.helpers';
import { samlEnv } from './support/saml-env';
import { oneloginAccepts, pysaml2Accepts } from './support/saml-verifiers';

const AC = 'urn:oasis:names:tc:SAML:2.0:ac:classes:';
const REFEDS_MFA = 'https://refeds.org/profile/mfa';
const A = 'urn:oasis:names:tc:SAML:2.0:assertion';
const P = 'urn:oasis:names:tc:SAML:2.0:protocol';
const decode = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');
const requested = (comparison: string, ...classes: string[]) =>
  `<samlp:RequestedAuthnContext Comparison="${comparison}">${classes.map((c) => `<saml:AuthnContextClassRef>${c}</saml:AuthnContextClassRef>`).join('')}</samlp:RequestedAuthnContext>`;
const csrfFrom = (html: string) => /name="csrf_token" value="([^"]+)"/.exec(html)![1];
const unescapeHtml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
const mfaTokenFrom = (html: string) => /name="mfa_token" value="([^"]+)"/.exec(html)?.[1];

function facts(xml: string) {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const codes = Array.from(doc.getElementsByTagNameNS(P, 'StatusCode')).map((c) => c.getAttribute('Value')!.replace(/^.*:/, ''));
  return { codes, classRef: doc.getElementsByTagNameNS(A, 'AuthnContextClassRef')[0]?.textContent ?? null };
}

describe('SAML authentication contexts met by a second factor', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  let tenant: Tenant;
  let metadata: string;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    t = await createTestApp({ ...samlEnv(), SMTP_URL: smtp.url });
    tenant = await aTenant(t);
    metadata = (await t.http().get('/saml/metadata/').expect(200)).text;
  });
  afterEach(() => t.get<Clock>(Clock).reset());
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  /** Answer the second-factor page the IdP shows, with a fresh code; returns where it sends the browser. */
  async function answerSecondFactor(
    browser: Agent,
    page: string,
    app: TestAuthenticator,
    next: string,
    workspaceId: string,
  ): Promise<string> {
    const token = mfaTokenFrom(page);
    if (!token) throw new Error(`no second-factor form: ${page.slice(0, 300)}`);
    const res = await browser
      .post('/auth/login/mfa/')
      .type('form')
      .send({ csrf_token: csrfFrom(page), mfa_token: token, workspace_id: workspaceId, next, code: app.next() });
    if (res.status !== 303) throw new Error(`second step failed: ${res.status} ${res.text.slice(0, 300)}`);
    return res.headers.location as string;
  }

  /** The password on the hosted login, which then asks for the second factor. */
  async function passwordThenFactor(browser: Agent, loginLocation: string, user: TestEndUser, app: TestAuthenticator): Promise<string> {
    const form = await browser.get(loginLocation).expect(200);
    const url = new URL(loginLocation, 'http://x');
    const next = url.searchParams.get('next')!;
    const workspaceId = url.searchParams.get('workspace_id')!;
    const challenged = await browser
      .post(url.pathname)
      .type('form')
      .send({ csrf_token: csrfFrom(form.text), workspace_id: workspaceId, next, email: user.email, password: user.password })
      .expect(200);
    return answerSecondFactor(browser, challenged.text, app, next, workspaceId);
  }

  async function expectAcceptedBySps(sp: RegisteredSp, samlResponse: string, requestId: string, user: TestEndUser, authnClass: string) {
    const { profile } = await sp.saml.validatePostResponseAsync({ SAMLResponse: samlResponse });
    expect(profile?.nameID).toBe(user.email);
    const job = { metadata, spEntityId: sp.entityId, acsUrl: sp.acsUrl, requestId, samlResponse };
    expect(await pysaml2Accepts(job)).toEqual({ ok: true, name_id: user.email, authn_class: authnClass });
    expect(await oneloginAccepts(job)).toEqual({ ok: true, name_id: user.email, authn_classes: [authnClass] });
  }

  const requestIdOf = (sp: RegisteredSp) => [...sp.cache.ids.keys()].pop()!;

  it('asks a user with an authenticator for the code after the password and asserts the REFEDS MFA class; pysaml2 and python3-saml accept it', async () => {
    const user = await anEndUser(t, tenant.client, { smtp });
    const { app } = await withTotp(t, user);
    const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
    const browser = newBrowser(t);
    const start = await browser.get(spRequest(sp, requested('exact', REFEDS_MFA))).expect(302);
    const requestId = requestIdOf(sp);
    const finish = await passwordThenFactor(browser, start.headers.location as string, user, app);
    const form = formFields((await browser.get(finish).expect(200)).text);
    expect(facts(decode(form.SAMLResponse))).toEqual({ codes: ['Success'], classRef: REFEDS_MFA });
    await expectAcceptedBySps(sp, form.SAMLResponse, requestId, user, REFEDS_MFA);
    const success = await auditEvents(t, tenant.dev, tenant.ws, 'saml_sso_success');
    expect(success.find((e) => e.target_id === sp.id)?.metadata).toMatchObject({ authn_context_class: REFEDS_MFA });
  });

  /** Enrols a passkey for the user through the end-user API (their only second factor): the authenticator holding it. */
  async function aPasskeyOf(user: TestEndUser): Promise<SoftAuthenticator> {
    const device = new SoftAuthenticator(t.config.PUBLIC_BASE_URL);
    const { access_token } = await logIn(t, user);
    const options = await t.http().post('/e/v1/auth/mfa/passkeys/options/').set(bearer(access_token)).send({}).expect(200);
    await t
      .http()
      .post('/e/v1/auth/mfa/passkeys/')
      .set(bearer(access_token))
      .send({ credential: device.register(options.body) })
      .expect(201);
    return device;
  }

  it('accepts a passkey as the second factor: the assertion names the REFEDS MFA class and pysaml2 and python3-saml accept it', async () => {
    const user = await anEndUser(t, tenant.client, { smtp });
    const device = await aPasskeyOf(user);
    const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
    const browser = newBrowser(t);
    const start = await browser.get(spRequest(sp, requested('exact', REFEDS_MFA))).expect(302);
    const requestId = requestIdOf(sp);
    const loginLocation = new URL(start.headers.location as string, 'http://x');
    const next = loginLocation.searchParams.get('next')!;
    const workspaceId = loginLocation.searchParams.get('workspace_id')!;
    const form = await browser.get(start.headers.location as string).expect(200);
    const challenged = await browser
      .post(loginLocation.pathname)
      .type('form')
      .send({ csrf_token: csrfFrom(form.text), workspace_id: workspaceId, next, email: user.email, password: user.password })
      .expect(200);
    // The page started the ceremony: its options are in the "Use a passkey" button, as the page's script reads them.
    const passkeyOptions = JSON.parse(unescapeHtml(/data-options="([^"]+)"/.exec(challenged.text)![1])) as {
      challenge: string;
      rpId: string;
    };
    const done = await browser
      .post('/auth/login/mfa/')
      .type('form')
      .send({
        csrf_token: csrfFrom(challenged.text),
        mfa_token: mfaTokenFrom(challenged.text)!,
        workspace_id: workspaceId,
        next,
        passkey_response: JSON.stringify(device.assert(passkeyOptions)),
      })
      .expect(303);
    const post = formFields((await browser.get(done.headers.location as string).expect(200)).text);
    expect(facts(decode(post.SAMLResponse))).toEqual({ codes: ['Success'], classRef: REFEDS_MFA });
    await expectAcceptedBySps(sp, post.SAMLResponse, requestId, user, REFEDS_MFA);
  });

  it('never loops between the SSO and the step-up for a passkey session asked for exact TimeSyncToken: a signed NoAuthnContext naming the user (decision 0215)', async () => {
    const user = await anEndUser(t, tenant.client, { smtp });
    const device = await aPasskeyOf(user);
    // The browser signs in with the password and the passkey (a session that used a second factor).
    const browser = newBrowser(t);
    const first = await aRegisteredSp(t, tenant.dev, tenant.ws);
    const start = await browser.get(spRequest(first, requested('exact', REFEDS_MFA))).expect(302);
    const loginLocation = new URL(start.headers.location as string, 'http://x');
    const next = loginLocation.searchParams.get('next')!;
    const form = await browser.get(start.headers.location as string).expect(200);
    const challenged = await browser
      .post(loginLocation.pathname)
      .type('form')
      .send({ csrf_token: csrfFrom(form.text), workspace_id: tenant.ws.id, next, email: user.email, password: user.password })
      .expect(200);
    const passkeyOptions = JSON.parse(unescapeHtml(/data-options="([^"]+)"/.exec(challenged.text)![1])) as {
      challenge: string;
      rpId: string;
    };
    const done = await browser
      .post('/auth/login/mfa/')
      .type('form')
      .send({
        csrf_token: csrfFrom(challenged.text),
        mfa_token: mfaTokenFrom(challenged.text)!,
        workspace_id: tenant.ws.id,
        next,
        passkey_response: JSON.stringify(device.assert(passkeyOptions)),
      })
      .expect(303);
    await browser.get(done.headers.location as string).expect(200);

    // An SP that asks exactly TimeSyncToken (a one-time code), which a passkey session does not meet: the
    // browser is answered at once, not sent to a step-up page that has nothing to ask and sends it back.
    const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
    const page = await browser.get(spRequest(sp, requested('exact', `${AC}TimeSyncToken`)));
    expect(page.status).toBe(200);
    const post = formFields(page.text);
    expect(facts(decode(post.SAMLResponse)).codes).toEqual(['Requester', 'NoAuthnContext']);
    await expect(sp.saml.validatePostResponseAsync({ SAMLResponse: post.SAMLResponse })).rejects.toBeInstanceOf(SamlStatusError);
    // The refusal is recorded against the person who was signed in, not an anonymous visitor.
    const failures = await auditEvents(t, tenant.dev, tenant.ws, 'saml_sso_failure');
    const row = failures.find((e) => e.target_id === sp.id);
    expect(row).toMatchObject({ actor_type: 'end_user', actor_id: user.id, metadata: { reason: 'authn_context_unsatisfiable' } });
  });

  it('ends a step-up whose factor cannot meet the request (a passkey for exact TimeSyncToken) with a signed NoAuthnContext naming the user, not another step-up', async () => {
    const user = await anEndUser(t, tenant.client, { smtp });
    // The browser signed in with the password before the account had its only factor, a passkey.
    const browser = newBrowser(t);
    await ssoAs(browser, spRequest(await aRegisteredSp(t, tenant.dev, tenant.ws)), user);
    const device = await aPasskeyOf(user);

    const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
    const start = await browser.get(spRequest(sp, requested('exact', `${AC}TimeSyncToken`))).expect(302);
    const login = new URL(start.headers.location as string, 'http://x');
    expect(login.searchParams.get('step_up')).toBe('1');
    const challenge = await browser.get(start.headers.location as string).expect(200);
    const passkeyOptions = JSON.parse(unescapeHtml(/data-options="([^"]+)"/.exec(challenge.text)![1])) as {
      challenge: string;
      rpId: string;
    };
    const done = await browser
      .post('/auth/login/mfa/')
      .type('form')
      .send({
        csrf_token: csrfFrom(challenge.text),
        mfa_token: mfaTokenFrom(challenge.text)!,
        workspace_id: tenant.ws.id,
        next: login.searchParams.get('next')!,
        passkey_response: JSON.stringify(device.assert(passkeyOptions)),
      })
      .expect(303);

    // Back at /saml/sso/finish/ with a session that used a passkey: answered, not sent to the step-up again.
    const finish = await browser.get(done.headers.location as string);
    expect(finish.status).toBe(200);
    const post = formFields(finish.text);
    expect(facts(decode(post.SAMLResponse)).codes).toEqual(['Requester', 'NoAuthnContext']);
    await expect(sp.saml.validatePostResponseAsync({ SAMLResponse: post.SAMLResponse })).rejects.toBeInstanceOf(SamlStatusError);
    const row = (await auditEvents(t, tenant.dev, tenant.ws, 'saml_sso_failure')).find((e) => e.target_id === sp.id);
    expect(row).toMatchObject({ actor_type: 'end_user', actor_id: user.id, metadata: { reason: 'authn_context_unsatisfiable' } });
  });

  it('steps up a password-only browser session with the second factor alone, and names the class met (TimeSyncToken)', async () => {
    const user = await anEndUser(t, tenant.client, { smtp });
    // The browser signed in with the password before the account had a second factor.
    const browser = newBrowser(t);
    const plain = await ssoAs(browser, spRequest(await aRegisteredSp(t, tenant.dev, tenant.ws)), user);
    expect(facts(decode(formFields(plain.text).SAMLResponse)).classRef).toBe(`${AC}PasswordProtectedTransport`);
    const { app } = await withTotp(t, user);

    // Asked passively, the step-up cannot happen: NoPassive, saying the user is signed in and owes a factor.
    const passive = await aRegisteredSp(t, tenant.dev, tenant.ws);
    const passivePage = await browser.get(spRequest(passive, requested('minimum', `${AC}TimeSyncToken`), ' IsPassive="true"')).expect(200);
    const passiveXml = decode(formFields(passivePage.text).SAMLResponse);
    expect(facts(passiveXml).codes).toEqual(['Responder', 'NoPassive']);
    const statusMessage = new DOMParser()
      .parseFromString(passiveXml, 'text/xml')
      .getElementsByTagNameNS(P, 'StatusMessage')[0]?.textContent;
    expect(statusMessage).toBe('The user is signed in but the request needs a second factor, which cannot be asked passively');

    const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
    const start = await browser.get(spRequest(sp, requested('minimum', `${AC}TimeSyncToken`))).expect(302);
    const requestId = requestIdOf(sp);
    const login = new URL(start.headers.location as string, 'http://x');
    expect(login.searchParams.get('step_up')).toBe('1');
    const challenge = await browser.get(start.headers.location as string).expect(200);
    expect(challenge.text).toContain('Two-step verification');
    expect(challenge.text).not.toContain('name="password"');
    // No password was asked on this trip: the page does not say it was checked.
    expect(challenge.text).not.toContain('Your password is correct');
    expect(challenge.text).toContain('You are signed in.');
    const finish = await answerSecondFactor(browser, challenge.text, app, login.searchParams.get('next')!, tenant.ws.id);
    const form = formFields((await browser.get(finish).expect(200)).text);
    expect(facts(decode(form.SAMLResponse))).toEqual({ codes: ['Success'], classRef: `${AC}TimeSyncToken` });
    await expectAcceptedBySps(sp, form.SAMLResponse, requestId, user, `${AC}TimeSyncToken`);

    // The stepped-up session now meets MobileTwoFactorContract at once, without a login page.
    const again = await aRegisteredSp(t, tenant.dev, tenant.ws);
    const page = await browser.get(spRequest(again, requested('exact', `${AC}MobileTwoFactorContract`))).expect(200);
    expect(facts(decode(formFields(page.text).SAMLResponse)).classRef).toBe(`${AC}MobileTwoFactorContract`);
  });

  it('answers a signed NoAuthnContext to a user without a second factor, and PasswordProtectedTransport when the password suffices', async () => {
    const user = await anEndUser(t, tenant.client, { smtp });
    const browser = newBrowser(t);
    const warmup = await aRegisteredSp(t, tenant.dev, tenant.ws);
    const plain = await ssoAs(browser, spRequest(warmup), user);
    expect(facts(decode(formFields(plain.text).SAMLResponse)).classRef).toBe(`${AC}PasswordProtectedTransport`);

    const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
    const page = await browser.get(spRequest(sp, requested('exact', REFEDS_MFA))).expect(200);
    const form = formFields(page.text);
    const error = await sp.saml.validatePostResponseAsync({ SAMLResponse: form.SAMLResponse }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(SamlStatusError);
    expect(facts(decode(form.SAMLResponse)).codes).toEqual(['Requester', 'NoAuthnContext']);

    // Not signed in yet: the password is asked, then the same answer.
    const fresh = newBrowser(t);
    const other = await aRegisteredSp(t, tenant.dev, tenant.ws);
    const start = await fresh.get(spRequest(other, requested('exact', REFEDS_MFA))).expect(302);
    const finish = await signInAt(fresh, start.headers.location as string, user);
    const after = formFields((await fresh.get(finish).expect(200)).text);
    expect(facts(decode(after.SAMLResponse)).codes).toEqual(['Requester', 'NoAuthnContext']);
  });
});
