import { aTenant, anEndUser, Tenant, TestEndUser } from '../../end-users/support';
import { createTestApp, TestApp } from '../../support/app';
import { startSmtpReceiver, SmtpReceiver } from '../../support/smtp-receiver';
import { newBrowser, signInWithCookie } from './browser-flow';
import { aRegisteredSp, authorizePath } from './saml-sso.helpers';
import { samlEnv } from './saml-env';

/** Two instances of the SAML IdP on one database, a tenant and one of its end users, for a suite. */
export interface TwoInstances {
  t: TestApp;
  other: TestApp;
  tenant: Tenant;
  user: TestEndUser;
}

/**
 * Starts the two instances (and the SMTP receiver the end user's sign-up needs) before the suite's tests and
 * closes them after; the returned object is filled in once the suite's first beforeAll has run.
 */
export function twoInstancesForSuite(): TwoInstances {
  const suite = {} as TwoInstances;
  let smtp: SmtpReceiver;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    suite.t = await createTestApp({ ...samlEnv(), SMTP_URL: smtp.url });
    suite.other = await createTestApp({ ...samlEnv(), SMTP_URL: smtp.url });
    suite.tenant = await aTenant(suite.t);
    suite.user = await anEndUser(suite.t, suite.tenant.client, { smtp, firstName: 'Ada' });
  });
  afterAll(async () => {
    await suite.other?.close();
    await suite.t?.close();
    await smtp?.stop();
  });
  return suite;
}

/** An SP registered in the tenant's workspace and a browser signed in at the first instance: the SP and its session cookie. */
export async function aSignedInBrowser({ t, tenant, user }: TwoInstances) {
  const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
  const browser = newBrowser(t);
  const start = await browser.get((await authorizePath(sp)).path).expect(302);
  const { next, cookie } = await signInWithCookie(browser, start.headers.location as string, user);
  await browser.get(next).expect(200);
  return { sp, cookie };
}
