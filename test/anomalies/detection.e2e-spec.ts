import { DetectorRegistry } from '../../src/anomalies/detection/detector-registry';
import { haversineKm } from '../../src/anomalies/haversine';
import { createTestApp, TestApp } from '../support/app';
import { GeoStub } from '../support/geo-stub';
import { SmtpReceiver, startSmtpReceiver } from '../support/smtp-receiver';
import { anEndUser, anomaliesOf, backdateSession, checksSettled, freshIp, PLACES, signIn, signInAndSettle, UA } from './sign-ins';

const latLon = (loc: string) => {
  const [latitude, longitude] = loc.split(',').map(Number);
  return { latitude, longitude };
};

describe('sign-in anomaly detection', () => {
  let t: TestApp;
  let geo: GeoStub;
  let smtp: SmtpReceiver;

  beforeAll(async () => {
    geo = await GeoStub.start();
    smtp = await startSmtpReceiver();
    t = await createTestApp({
      TRUST_PROXY: 'true',
      GEO_TOKEN: 'geo-test-token',
      GEO_API_URL: geo.url,
      SMTP_URL: smtp.url,
    });
  });
  afterAll(async () => {
    await t?.close();
    await geo?.close();
    await smtp?.stop();
  });
  afterEach(() => geo.hang(0));

  /** Programs the stub: this fresh address is in `place`. */
  const ipIn = (place: (typeof PLACES)[keyof typeof PLACES]) => {
    const ip = freshIp();
    geo.answer(ip, place);
    return ip;
  };

  it('never flags the first session, and stores its geolocation on the session', async () => {
    const user = await anEndUser(t);
    const s = await signInAndSettle(t, user, { ua: UA.chromeMac(), ip: ipIn(PLACES.tokyo) });
    expect(await anomaliesOf(t, s)).toEqual([]);
    const sessions = await t.http().get('/user/security/sessions/').set(s.auth).expect(200);
    expect(sessions.body.results).toEqual([expect.objectContaining({ id: s.sessionId, country: 'JP', city: 'Tokyo' })]);
  });

  it('does not treat a Chrome version bump as a new device', async () => {
    const user = await anEndUser(t);
    const ip = ipIn(PLACES.paris);
    await signInAndSettle(t, user, { ua: UA.chromeMac('120.0.1.0'), ip });
    await signInAndSettle(t, user, { ua: UA.chromeMac('120.0.2.0'), ip });
    const last = await signInAndSettle(t, user, { ua: UA.chromeMac('121.0.6167.85'), ip });
    expect(await anomaliesOf(t, last)).toEqual([]);
  });

  it('flags only new_ip when a known device signs in from a new address', async () => {
    const user = await anEndUser(t);
    await signInAndSettle(t, user, { ua: UA.chromeMac(), ip: ipIn(PLACES.paris) });
    const newIp = ipIn(PLACES.paris);
    const s = await signInAndSettle(t, user, { ua: UA.chromeMac(), ip: newIp });
    const found = await anomaliesOf(t, s);
    expect(found).toEqual([
      expect.objectContaining({ kind: 'new_ip', severity: 'info', ip_address: newIp, session_id: s.sessionId, notified_at: null }),
    ]);
    expect(smtp.messagesTo(user.email).filter((m) => /new sign-in/i.test(m.subject))).toHaveLength(0);
  });

  it('flags new_device for a new browser, emails the user once and audits both steps', async () => {
    const user = await anEndUser(t, 'Acme Notes');
    const ip = ipIn(PLACES.paris);
    await signInAndSettle(t, user, { ua: UA.chromeMac(), ip });
    const s = await signInAndSettle(t, user, { ua: UA.firefoxWindows, ip });

    const [anomaly] = await anomaliesOf(t, s);
    expect(anomaly).toMatchObject({
      kind: 'new_device',
      severity: 'warn',
      ip_address: ip,
      country: 'FR',
      city: 'Paris',
      user_agent: UA.firefoxWindows,
      session_id: s.sessionId,
      acknowledged_at: null,
      metadata: { browser_family: 'Firefox', os_family: 'Windows' },
    });
    expect(anomaly.message).toMatch(/Firefox on Windows/);
    expect(anomaly.notified_at).toEqual(expect.any(String));

    const mail = await smtp.waitFor(user.email, { nth: 2 }); // 1st: registration confirmation
    expect(mail.subject).toBe('New sign-in to your Acme Notes account');
    expect(mail.html).toContain('Firefox on Windows');
    expect(mail.html).toContain(ip);
    expect(mail.html).toContain('Paris');
    expect(mail.html).toContain(`${t.baseUrl}/auth/sessions/?workspace_id=${user.workspaceId}`);
    // The plain-text part reads as sentences and "label: value" lines.
    expect(mail.text).toContain(`IP address: ${ip}`);
    expect(mail.text).toContain('Where: Paris, France');

    const audit = (await t.dataSource.query(
      `SELECT event_type, severity, target_type, target_id, metadata FROM audit_events
        WHERE workspace_id = $1 AND event_type IN ('anomaly_detected', 'anomaly_notified') ORDER BY created_at`,
      [user.workspaceId],
    )) as Array<{ event_type: string; severity: string; target_id: string; metadata: Record<string, unknown> }>;
    expect(audit).toEqual([
      expect.objectContaining({
        event_type: 'anomaly_detected',
        severity: 'warn',
        target_id: s.sessionId,
        metadata: expect.objectContaining({ kind: 'new_device' }),
      }),
      expect.objectContaining({
        event_type: 'anomaly_notified',
        severity: 'info',
        target_id: s.sessionId,
        metadata: expect.objectContaining({ kinds: ['new_device'] }),
      }),
    ]);
  });

  it('flags Paris then Tokyo one hour later as impossible travel, with the distance and speed', async () => {
    const user = await anEndUser(t);
    const paris = await signInAndSettle(t, user, { ua: UA.chromeMac(), ip: ipIn(PLACES.paris) });
    await backdateSession(t, paris.sessionId, 1);
    const tokyo = await signInAndSettle(t, user, { ua: UA.chromeMac(), ip: ipIn(PLACES.tokyo) });

    const found = await anomaliesOf(t, tokyo);
    expect(found.map((a) => a.kind).sort()).toEqual(['impossible_travel', 'new_country', 'new_ip']);
    const travel = found.find((a) => a.kind === 'impossible_travel')!;
    const expectedKm = haversineKm(latLon(PLACES.paris.loc), latLon(PLACES.tokyo.loc));
    expect(travel).toMatchObject({ severity: 'critical', country: 'JP', city: 'Tokyo' });
    expect(travel.metadata).toMatchObject({ from_country: 'FR', to_country: 'JP', prior_session_id: paris.sessionId });
    expect(Math.abs(Number(travel.metadata.distance_km) - expectedKm)).toBeLessThan(expectedKm * 0.01);
    expect(travel.metadata.delta_hours).toBeCloseTo(1, 2);
    expect(travel.metadata.speed_kmh).toBeGreaterThan(expectedKm * 0.98);
    expect(travel.metadata.speed_kmh).toBeLessThan(expectedKm * 1.01);

    // One email for the sign-in, listing every kind, most severe first.
    const mail = await smtp.waitFor(user.email, { nth: 2 });
    expect(mail.html).toMatch(/Tokyo/);
    expect(smtp.messagesTo(user.email)).toHaveLength(2);
    const [notified] = (await t.dataSource.query(
      `SELECT metadata FROM audit_events WHERE workspace_id = $1 AND event_type = 'anomaly_notified'`,
      [user.workspaceId],
    )) as Array<{ metadata: { kinds: string[] } }>;
    expect(notified.metadata.kinds).toEqual(['impossible_travel', 'new_country', 'new_ip']);
    const detected = (await t.dataSource.query(
      `SELECT severity, metadata->>'kind' AS kind FROM audit_events WHERE workspace_id = $1 AND event_type = 'anomaly_detected' ORDER BY 2`,
      [user.workspaceId],
    )) as Array<{ severity: string; kind: string }>;
    expect(detected).toEqual([
      { kind: 'impossible_travel', severity: 'warn' },
      { kind: 'new_country', severity: 'warn' },
      { kind: 'new_ip', severity: 'info' },
    ]);
  });

  it('does not flag 200 km in one hour as impossible travel', async () => {
    const user = await anEndUser(t);
    const paris = await signInAndSettle(t, user, { ua: UA.chromeMac(), ip: ipIn(PLACES.paris) });
    await backdateSession(t, paris.sessionId, 1);
    const lille = await signInAndSettle(t, user, { ua: UA.chromeMac(), ip: ipIn(PLACES.lille) });
    expect((await anomaliesOf(t, lille)).map((a) => a.kind)).toEqual(['new_ip']);
  });

  it('completes the sign-in promptly when the geolocation provider hangs, and the geo detectors skip', async () => {
    const user = await anEndUser(t);
    const paris = await signInAndSettle(t, user, { ua: UA.chromeMac(), ip: ipIn(PLACES.paris) });
    await backdateSession(t, paris.sessionId, 1);
    geo.hang(10_000);
    const tokyoIp = ipIn(PLACES.tokyo);
    const s = await signIn(t, user, { ua: UA.chromeMac(), ip: tokyoIp });
    expect(s.elapsedMs).toBeLessThan(1500);
    const settleStarted = Date.now();
    await checksSettled(t);
    expect(Date.now() - settleStarted).toBeLessThan(5000); // gave up at the 2.5 s timeout, not 10 s
    expect((await anomaliesOf(t, s)).map((a) => a.kind)).toEqual(['new_ip']);
    const [row] = (await t.dataSource.query('SELECT country, latitude FROM end_user_sessions WHERE id = $1', [s.sessionId])) as Array<{
      country: string | null;
      latitude: number | null;
    }>;
    expect(row).toEqual({ country: null, latitude: null });
  });

  it('keeps the other detectors results when one detector throws', async () => {
    const registry = t.get<DetectorRegistry>(DetectorRegistry);
    const restore = registry.replace('new_country', {
      kind: 'new_country',
      needsGeo: true,
      detect: () => {
        throw new Error('detector forced to fail');
      },
    });
    try {
      const user = await anEndUser(t);
      const paris = await signInAndSettle(t, user, { ua: UA.chromeMac(), ip: ipIn(PLACES.paris) });
      await backdateSession(t, paris.sessionId, 1);
      const tokyo = await signInAndSettle(t, user, { ua: UA.chromeMac(), ip: ipIn(PLACES.tokyo) });
      expect((await anomaliesOf(t, tokyo)).map((a) => a.kind).sort()).toEqual(['impossible_travel', 'new_ip']);
    } finally {
      restore();
    }
    const metrics = await t.http().get('/metrics').expect(200);
    expect(metrics.text).toMatch(/anomaly_detector_failures_total\{kind="new_country"\} [1-9]/);
  });

  it('serves a second lookup of the same address from the cache', async () => {
    const ip = ipIn(PLACES.paris);
    const first = await anEndUser(t);
    const second = await anEndUser(t);
    await signInAndSettle(t, first, { ua: UA.chromeMac(), ip });
    await signInAndSettle(t, second, { ua: UA.chromeMac(), ip });
    await signInAndSettle(t, first, { ua: UA.firefoxWindows, ip });
    expect(geo.callsFor(ip)).toBe(1);
    expect(geo.calls.find((c) => c.ip === ip)?.token).toBe('geo-test-token');
  });

  it('never sends private addresses to the geolocation provider', async () => {
    const user = await anEndUser(t);
    const before = geo.calls.length;
    const s = await signInAndSettle(t, user, { ua: UA.chromeMac(), ip: '10.1.2.3' });
    await signInAndSettle(t, user, { ua: UA.chromeMac(), ip: '192.168.7.7' });
    expect(geo.calls.length).toBe(before);
    expect((await anomaliesOf(t, s)).map((a) => a.kind)).toEqual(['new_ip']);
  });
});
