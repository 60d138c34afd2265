import { createTestApp, TestApp } from '../support/app';
import { startSmtpReceiver, SmtpReceiver } from '../support/smtp-receiver';
import { aTenant, anEndUser, Tenant } from '../end-users/support';
import { newBrowser, signInAt } from './support/browser-flow';
import { aRegisteredSp, auditEvents, craftedRequest, formFields, spRequest } from './support/saml-sso.helpers';
import { samlEnv } from './support/saml-env';
import { testRedisPrefix } from '../support/redis-keys';

const LIMIT = 8;
const PARKED_PER_CLIENT = 3;

describe('SAML SSO under anonymous load', () => {
  const shared = {
    ...samlEnv(),
    RATE_LIMIT_SAML_SSO_PER_MINUTE: String(LIMIT),
    SAML_PENDING_PER_CLIENT: String(PARKED_PER_CLIENT),
    REDIS_KEY_PREFIX: testRedisPrefix(),
    TRUST_PROXY: 'true',
  };
  let t: TestApp;
  let twin: TestApp;
  let smtp: SmtpReceiver;
  let tenant: Tenant;
  let ipSeq = 0;
  /** A client address of its own for each test: the limit counts per address. */
  const freshIp = () => `10.77.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    t = await createTestApp({ ...shared, SMTP_URL: smtp.url });
    twin = await createTestApp({ ...shared, SMTP_URL: smtp.url });
    tenant = await aTenant(t);
  });
  afterAll(async () => {
    await t.close();
    await twin.close();
    await smtp.stop();
  });

  it('limits /saml/sso* per client address across instances: 429 with Retry-After, other addresses unaffected', async () => {
    const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const app = i % 2 === 0 ? t : twin;
      const path = i % 3 === 2 ? '/saml/sso/finish/' : craftedRequest(sp.entityId);
      statuses.push((await app.http().get(path).set('X-Forwarded-For', ip)).status);
    }
    expect(statuses.every((s) => s === 302 || s === 400)).toBe(true);
    for (const [app, path] of [
      [t, craftedRequest(sp.entityId)],
      [twin, '/saml/sso/finish/'],
    ] as const) {
      const limited = await app.http().get(path).set('X-Forwarded-For', ip);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.headers['content-type']).toMatch(/text\/html/);
    }
    const posted = await t.http().post('/saml/sso/').set('X-Forwarded-For', ip).type('form').send({ SAMLRequest: 'AAAA' });
    expect(posted.status).toBe(429);
    await t.http().get(craftedRequest(sp.entityId)).set('X-Forwarded-For', freshIp()).expect(302);
  });

  it('stores at most 256 characters of any caller-supplied value (metadata, User-Agent) in an audit row, marked truncated', async () => {
    const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
    const longAcs = `https://attacker.example.test/${'a'.repeat(1900)}`;
    const res = await t
      .http()
      .get(craftedRequest(sp.entityId, { acsUrl: longAcs }))
      .set('X-Forwarded-For', freshIp())
      .set('User-Agent', `probe/${'u'.repeat(900)}`)
      .expect(400);
    const [{ user_agent: userAgent }] = (await t.dataSource.query(`SELECT user_agent FROM audit_events WHERE request_id = $1`, [
      res.headers['x-request-id'],
    ])) as { user_agent: string }[];
    expect(userAgent.length).toBeLessThanOrEqual(257);
    const failures = await auditEvents(t, tenant.dev, tenant.ws, 'saml_sso_failure');
    const row = failures.find((e) => e.target_id === sp.id);
    expect(row?.metadata).toMatchObject({ reason: 'acs_mismatch', registered_acs_url: sp.acsUrl, truncated: ['requested_acs_url'] });
    const stored = row!.metadata.requested_acs_url as string;
    expect(stored.length).toBeLessThanOrEqual(257);
    expect(longAcs.startsWith(stored.replace(/…$/, ''))).toBe(true);
    expect(JSON.stringify(row!.metadata).length).toBeLessThan(1024);
    expect(res.text).not.toContain('a'.repeat(300));
  });

  it('keeps only the newest parked requests of a client address; older tickets expire, the newest still signs in', async () => {
    const sp = await aRegisteredSp(t, tenant.dev, tenant.ws);
    const user = await anEndUser(t, tenant.client, { smtp });
    const ip = freshIp();
    const browsers = Array.from({ length: PARKED_PER_CLIENT + 2 }, () => newBrowser(t));
    const starts = [];
    for (const browser of browsers) starts.push(await browser.get(spRequest(sp)).set('X-Forwarded-For', ip).expect(302));

    const [{ count }] = (await t.dataSource.query(`SELECT count(*)::int AS count FROM saml_pending_requests WHERE client_ip = $1`, [
      ip,
    ])) as { count: number }[];
    expect(count).toBe(PARKED_PER_CLIENT);

    // The oldest browser's ticket was dropped: after signing in it is told to start again.
    const oldest = await signInAt(browsers[0], starts[0].headers.location as string, user);
    const expired = await browsers[0].get(oldest).set('X-Forwarded-For', ip).expect(400);
    expect(expired.text).toContain('expired');
    const newest = browsers[browsers.length - 1];
    const next = await signInAt(newest, starts[starts.length - 1].headers.location as string, user);
    const page = await newest.get(next).set('X-Forwarded-For', ip).expect(200);
    const { profile } = await sp.saml.validatePostResponseAsync({ SAMLResponse: formFields(page.text).SAMLResponse });
    expect(profile?.nameID).toBe(user.email);
  });
});
