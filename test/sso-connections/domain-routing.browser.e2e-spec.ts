import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { anEndUser, aTenant, Tenant } from '../end-users/support';
import { seriousViolations } from '../console/support';
import { createTestApp, TestApp } from '../support/app';
import { BROWSER_STEP_CEILING_MS, withChromium } from '../support/browser';
import { startDnsServer, TestDnsServer } from './support/dns-server';
import { idpKeys } from './support/upstream-saml-idp';
import { startStubUpstream, StubUpstream } from './support/stub-upstream';

const csrfFrom = (html: string) => /name="csrf_token" value="([^"]+)"/.exec(html)![1];

/**
 * Routing on the hosted login (docs/sso-connections.md, "Domains and routing"): an email at a domain
 * the workspace verified for its SSO connection goes to the company's identity provider instead of
 * a password, keeping where the sign-in continues; nothing else routes. The upstream is a stub on
 * loopback that shows which authorization request arrived.
 */
describe('hosted login: an email at a verified domain signs in at the company IdP', () => {
  let t: TestApp;
  let dns: TestDnsServer;
  let upstream: StubUpstream;
  let browser: Browser;
  beforeAll(async () => {
    [dns, upstream] = [await startDnsServer(), await startStubUpstream()];
    t = await createTestApp({ SSO_DNS_SERVERS: dns.address, OAUTH_JWKS_ALLOW_PRIVATE_TARGETS: 'true' });
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([dns.close(), upstream.close()]);
  });
  withChromium((started) => (browser = started));

  /** A tenant whose workspace has a connection (OIDC unless asked) at the stub upstream, serving a fresh domain; verified unless asked. */
  async function aCompany(opts: { verified?: boolean; protocol?: 'oidc' | 'saml' } = {}) {
    const tenant = await aTenant(t, 'Acme Notes');
    const domain = `acme-${randomUUID().slice(0, 8)}.example`;
    const settings =
      opts.protocol === 'saml'
        ? {
            protocol: 'saml',
            saml: {
              idp_entity_id: `${upstream.issuer}/saml`,
              idp_sso_url: `${upstream.issuer}/saml/sso`,
              idp_certificates: [idpKeys().certPem],
            },
          }
        : { protocol: 'oidc', oidc: { issuer: upstream.issuer, client_id: 'acme-client', client_secret: 'acme-secret' } };
    const created = await t
      .http()
      .post('/developer/external-providers/')
      .set(tenant.dev.auth)
      .send({ workspace_id: tenant.ws.id, name: 'Acme Okta', domains: [domain], ...settings })
      .expect(201);
    const id = created.body.id as string;
    if (opts.verified !== false) {
      const [record] = created.body.domain_verifications as { txt_record_name: string; txt_record_value: string }[];
      dns.publishTxt(record.txt_record_name, record.txt_record_value);
      await t.http().post(`/developer/external-providers/${id}/domains/${domain}/verify`).set(tenant.dev.auth).expect(200);
    }
    return { ...tenant, domain, connectionId: id };
  }
  const flowsOf = (connectionId: string) =>
    t.dataSource.query<{ next: string }[]>('SELECT next FROM sso_oidc_flows WHERE connection_id = $1', [connectionId]);

  /** The pages a tab navigated to, in order (paths and queries of this service, full URLs elsewhere). */
  function navigations(page: Page): string[] {
    const seen: string[] = [];
    page.on('request', (r) => {
      if (r.isNavigationRequest() && r.frame() === page.mainFrame()) seen.push(r.url().replace(t.baseUrl, ''));
    });
    return seen;
  }

  it('without JavaScript: the email alone, a server-side hand-off, and the upstream receives our authorization request', async () => {
    const company = await aCompany();
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const seen = navigations(page);
    await page.goto(`${t.baseUrl}/auth/login/?workspace_id=${company.ws.id}&next=${encodeURIComponent('/somewhere/after')}`);
    // The form says the password may stay empty for a work account, and does not require it.
    expect(await page.locator('#password-hint').textContent()).toContain('Leave it empty');
    expect(await page.getByLabel('Password').getAttribute('required')).toBeNull();
    await page.getByLabel('Email').fill(`Ada.Lovelace@${company.domain.toUpperCase()}`);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.waitForURL((url) => url.href.startsWith(`${upstream.issuer}/authorize`), { timeout: BROWSER_STEP_CEILING_MS });
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Acme corporate sign-in');
    const authorize = new URL(page.url());
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      client_id: 'acme-client',
      response_type: 'code',
      redirect_uri: `${t.config.PUBLIC_BASE_URL}/auth/sso/${company.connectionId}/callback`,
      code_challenge_method: 'S256',
      state: expect.any(String),
    });
    // Through the connection's own sign-in link, with next kept; the sign-in waiting upstream will end there.
    expect(seen).toContain(`/auth/sso/${company.connectionId}/?next=${encodeURIComponent('/somewhere/after')}`);
    expect(await flowsOf(company.connectionId)).toEqual([{ next: '/somewhere/after' }]);
    expect((await context.cookies()).find((c) => c.name === 'esid')).toBeUndefined();
    await context.close();
  });

  it("keeps an application's authorization request as next, and the password typed beside the email is never checked", async () => {
    const company = await aCompany();
    const next = `/oauth/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: company.client.client_id,
      redirect_uri: 'https://app.example/callback',
      state: 'app-state',
    })}`;
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${t.baseUrl}/auth/login/?client_id=${encodeURIComponent(company.client.client_id)}&next=${encodeURIComponent(next)}`);
    // The form with its work-account hint passes axe, in both colour schemes.
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
      expect(await seriousViolations(page)).toEqual([]);
    }
    await page.getByLabel('Email').fill(`grace@${company.domain}`);
    await page.getByLabel('Password').fill('a password nobody checks');
    await page.getByLabel('Password').press('Enter');
    await page.waitForURL((url) => url.href.startsWith(`${upstream.issuer}/authorize`), { timeout: BROWSER_STEP_CEILING_MS });
    expect(await flowsOf(company.connectionId)).toEqual([{ next }]);
    const failures = await t
      .http()
      .get('/developer/audit/')
      .query({ workspace_id: company.ws.id, event_type: 'login_failure' })
      .set(company.dev.auth)
      .expect(200);
    expect(failures.body.results).toEqual([]);
    await context.close();
  });

  it('sends an address at a verified domain of a SAML connection to the IdP with an AuthnRequest', async () => {
    const company = await aCompany({ protocol: 'saml' });
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${t.baseUrl}/auth/login/?workspace_id=${company.ws.id}&next=${encodeURIComponent('/after/saml')}`);
    await page.getByLabel('Email').fill(`ada@${company.domain}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${upstream.issuer}/saml/sso?`), { timeout: BROWSER_STEP_CEILING_MS });
    const sent = new URL(page.url()).searchParams;
    expect(sent.get('SAMLRequest')).toMatch(/^[A-Za-z0-9+/=]+$/);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Acme corporate sign-in');
    await context.close();
  });

  it('the hand-off page names where it goes, as a link, and passes axe', async () => {
    const company = await aCompany();
    const context = await browser.newContext();
    const page = await context.newPage();
    // The connection answers "no content", so the browser stays on the hand-off page long enough to read it.
    await page.route(`${t.baseUrl}/auth/sso/**`, (route) => route.fulfill({ status: 204 }));
    await page.goto(`${t.baseUrl}/auth/login/sso/?client_id=${company.client.client_id}&next=%2Fafter&connection=${company.connectionId}`);
    await page.getByRole('heading', { level: 1, name: 'Continue to your organization' }).waitFor();
    expect(await page.title()).toBe('Continue to your organization · Acme Notes');
    const link = page.getByRole('link', { name: "Continue to your organization's sign-in page" });
    expect(await link.getAttribute('href')).toBe(`/auth/sso/${company.connectionId}/?next=%2Fafter`);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
      expect(await seriousViolations(page)).toEqual([]);
    }
    await context.close();
  });

  describe('what does not route', () => {
    async function post(company: Tenant, email: string, password = '') {
      const agent = request.agent(t.app.getHttpServer());
      const page = await agent.get(`/auth/login/?workspace_id=${company.ws.id}&next=/after`).expect(200);
      const res = await agent
        .post('/auth/login/')
        .type('form')
        .send({ csrf_token: csrfFrom(page.text), workspace_id: company.ws.id, next: '/after', email, password });
      return { form: page.text, res };
    }

    it('a domain not verified yet: the password is asked as before, and the form requires it', async () => {
      const company = await aCompany({ verified: false });
      const { form, res } = await post(company, `ada@${company.domain}`);
      expect(form).not.toContain('password-hint');
      expect(form).toMatch(/id="password"[^>]*required/);
      expect(res.status).toBe(401);
      expect(res.text).toContain('Email or password is incorrect');
    });

    it("another workspace's verified domain, and a subdomain of one's own", async () => {
      const [mine, theirs] = [await aCompany(), await aCompany()];
      for (const email of [`ada@${theirs.domain}`, `ada@eu.${mine.domain}`, `ada@${mine.domain}.evil.example`]) {
        const { res } = await post(mine, email);
        expect({ email, status: res.status }).toEqual({ email, status: 401 });
      }
    });

    it('a person at another domain of the workspace still signs in with their password', async () => {
      const company = await aCompany();
      const user = await anEndUser(t, company.client);
      await t.dataSource.query('UPDATE end_users SET email_verified = true WHERE id = $1', [user.id]);
      const agent = request.agent(t.app.getHttpServer());
      const page = await agent.get(`/auth/login/?client_id=${company.client.client_id}`).expect(200);
      const res = await agent
        .post('/auth/login/')
        .type('form')
        .send({
          csrf_token: csrfFrom(page.text),
          client_id: company.client.client_id,
          next: '/after',
          email: user.email,
          password: user.password,
        });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/after');
    });

    it('the hand-off page without a connection is a 400 page, never a redirect', async () => {
      for (const query of ['', 'connection=not-a-uuid', 'connection=../../evil']) {
        const res = await t.http().get(`/auth/login/sso/?${query}`);
        expect(res.status).toBe(400);
        expect(res.text).toContain('does not name your organization');
      }
    });
  });
});
