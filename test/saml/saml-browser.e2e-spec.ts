import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { escapeHtml } from '../../src/common/html/escape';
import { createTestApp, TestApp } from '../support/app';
import { startSmtpReceiver, SmtpReceiver } from '../support/smtp-receiver';
import { aTenant, anEndUser, Tenant, TestEndUser } from '../end-users/support';
import { aRegisteredSp, RegisteredSp } from './support/saml-sso.helpers';
import { samlEnv } from './support/saml-env';
import { launchChromium } from '../support/browser';

function readBody(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (data += chunk));
    req.on('end', () => resolve(new URLSearchParams(data)));
    req.on('error', reject);
  });
}

/**
 * A tiny service provider on "localhost" (another site than the IdP on 127.0.0.1):
 * /start redirects to the IdP with a node-saml AuthnRequest, /acs validates the
 * posted Response with node-saml and shows the user's attributes.
 */
function startSpServer(getSp: () => RegisteredSp, idpBaseUrl: string): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    void (async () => {
      const sp = getSp();
      if (req.method === 'GET' && req.url === '/start') {
        const url = new URL(await sp.saml.getAuthorizeUrlAsync('/dashboard', undefined, {}));
        res.writeHead(302, { Location: `${idpBaseUrl}${url.pathname}${url.search}` }).end();
        return;
      }
      if (req.method === 'POST' && req.url === '/acs') {
        const form = await readBody(req);
        try {
          const { profile } = await sp.saml.validatePostResponseAsync({ SAMLResponse: form.get('SAMLResponse') ?? '' });
          const rows = ['nameID', 'email', 'firstName', 'displayName', 'uid']
            .map((k) => `<dt>${k}</dt><dd id="${k}">${escapeHtml(profile?.[k])}</dd>`)
            .join('');
          res
            .writeHead(200, { 'Content-Type': 'text/html' })
            .end(`<h1>Welcome to the SP</h1><dl>${rows}</dl><p id="relay">${escapeHtml(form.get('RelayState'))}</p>`);
        } catch (err) {
          res.writeHead(403, { 'Content-Type': 'text/html' }).end(`<h1>Rejected</h1><p>${escapeHtml((err as Error).message)}</p>`);
        }
        return;
      }
      res.writeHead(404).end();
    })();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, base: `http://localhost:${(server.address() as AddressInfo).port}` })),
  );
}

describe('SAML sign-in in a real browser', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  let tenant: Tenant;
  let user: TestEndUser;
  let sp: RegisteredSp;
  let spServer: { server: Server; base: string };
  let browser: Browser;

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    t = await createTestApp({ ...samlEnv(), SMTP_URL: smtp.url });
    tenant = await aTenant(t);
    user = await anEndUser(t, tenant.client, { smtp, firstName: 'Grace' });
    spServer = await startSpServer(() => sp, t.baseUrl);
    sp = await aRegisteredSp(t, tenant.dev, tenant.ws, { acs_url: `${spServer.base}/acs` });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => spServer?.server.close(resolve));
    await t.close();
    await smtp.stop();
  });

  async function signInFrom(javaScriptEnabled: boolean) {
    const context = await browser.newContext({ javaScriptEnabled });
    const page = await context.newPage();
    await page.goto(`${spServer.base}/start`);
    await page.waitForURL(/\/auth\/login\//);
    await page.fill('#email', user.email);
    await page.fill('#password', user.password);
    await page.click('button[type=submit]');
    return { context, page };
  }

  it('walks SP page -> our login page -> auto-submitted POST -> the SP shows the attributes', async () => {
    const { context, page } = await signInFrom(true);
    await page.waitForURL(`${spServer.base}/acs`);
    expect(await page.textContent('h1')).toBe('Welcome to the SP');
    expect(await page.textContent('#nameID')).toBe(user.email);
    expect(await page.textContent('#email')).toBe(user.email);
    expect(await page.textContent('#firstName')).toBe('Grace');
    expect(await page.textContent('#uid')).toBe(user.id);
    expect(await page.textContent('#relay')).toBe('/dashboard');
    await context.close();
  });

  it('lets a browser without scripts finish with the visible Continue button', async () => {
    const { context, page } = await signInFrom(false);
    await page.waitForSelector('button:has-text("Continue")');
    expect(await page.isVisible('button:has-text("Continue")')).toBe(true);
    await Promise.all([page.waitForURL(`${spServer.base}/acs`), page.click('button:has-text("Continue")')]);
    expect(await page.textContent('#nameID')).toBe(user.email);
    await context.close();
  });
});
