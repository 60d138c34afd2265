import { createTestApp, TestApp } from '../support/app';
import { GeoStub } from '../support/geo-stub';
import { mailQueueSettled } from '../support/mail-jobs';
import { SmtpReceiver, startSmtpReceiver } from '../support/smtp-receiver';
import { anEndUser, anomaliesOf, checksSettled, freshIp, PLACES, signIn, signInAndSettle, UA } from './sign-ins';

/* ANOMALY_EMAIL_ON_NEW_DEVICE=False, no Redis, and ANOMALY_DETECTION_ENABLED=false, each on its own app. */
describe('alert settings', () => {
  let geo: GeoStub;
  let smtp: SmtpReceiver;
  beforeAll(async () => {
    geo = await GeoStub.start();
    smtp = await startSmtpReceiver();
  });
  afterAll(async () => {
    await geo?.close();
    await smtp?.stop();
  });

  describe('with ANOMALY_EMAIL_ON_NEW_DEVICE=False', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({
        TRUST_PROXY: 'true',
        GEO_TOKEN: 'tok',
        GEO_API_URL: geo.url,
        SMTP_URL: smtp.url,
        ANOMALY_EMAIL_ON_NEW_DEVICE: 'False',
      });
    });
    afterAll(() => t?.close());

    it('records new_device without emailing anyone', async () => {
      const user = await anEndUser(t);
      const ip = freshIp();
      geo.answer(ip, PLACES.paris);
      await signInAndSettle(t, user, { ua: UA.chromeMac(), ip });
      const s = await signInAndSettle(t, user, { ua: UA.firefoxWindows, ip });
      expect(await anomaliesOf(t, s)).toEqual([expect.objectContaining({ kind: 'new_device', notified_at: null })]);
      await mailQueueSettled(); // a wrongly queued mail would have been sent by now
      expect(smtp.messagesTo(user.email)).toHaveLength(1); // the registration confirmation only
    });

    it('still emails for the other kinds, listing new_device among them', async () => {
      const user = await anEndUser(t);
      const parisIp = freshIp();
      const tokyoIp = freshIp();
      geo.answer(parisIp, PLACES.paris).answer(tokyoIp, PLACES.tokyo);
      await signInAndSettle(t, user, { ua: UA.chromeMac(), ip: parisIp });
      const s = await signInAndSettle(t, user, { ua: UA.firefoxWindows, ip: tokyoIp });
      const found = await anomaliesOf(t, s);
      // Seconds from Paris to Tokyo: impossible travel too.
      expect(found.map((a) => a.kind).sort()).toEqual(['impossible_travel', 'new_country', 'new_device']);
      const mail = await smtp.waitFor(user.email, { nth: 2 });
      expect(mail.html).toContain('Japan');
      expect(mail.html).toMatch(/Firefox on Windows/);
      expect(found.every((a) => a.notified_at !== null)).toBe(true);
    });
  });

  describe('without Redis', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ TRUST_PROXY: 'true', GEO_TOKEN: 'tok', GEO_API_URL: geo.url, REDIS_URL: '' });
    });
    afterAll(() => t?.close());

    it('keeps the geolocation cache in Postgres', async () => {
      const user = await anEndUser(t);
      const ip = freshIp();
      geo.answer(ip, PLACES.tokyo);
      await signInAndSettle(t, user, { ua: UA.chromeMac(), ip });
      await signInAndSettle(t, user, { ua: UA.firefoxWindows, ip });
      expect(geo.callsFor(ip)).toBe(1);
      const rows = (await t.dataSource.query(
        "SELECT data, expires_at > now() + interval '23 hours' AS fresh FROM geo_cache WHERE ip = $1",
        [ip],
      )) as Array<{ data: Record<string, unknown>; fresh: boolean }>;
      expect(rows).toEqual([{ data: expect.objectContaining({ country: 'JP', city: 'Tokyo' }), fresh: true }]);
    });
  });

  describe('with ANOMALY_DETECTION_ENABLED=false', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ TRUST_PROXY: 'true', GEO_TOKEN: 'tok', GEO_API_URL: geo.url, ANOMALY_DETECTION_ENABLED: 'false' });
    });
    afterAll(() => t?.close());

    it('signs in without checking anything or calling the provider', async () => {
      const user = await anEndUser(t);
      const before = geo.calls.length;
      await signIn(t, user, { ua: UA.chromeMac(), ip: freshIp() });
      const s = await signIn(t, user, { ua: UA.firefoxWindows, ip: freshIp() });
      await checksSettled(t);
      expect(await anomaliesOf(t, s)).toEqual([]);
      expect(geo.calls.length).toBe(before);
    });
  });
});
