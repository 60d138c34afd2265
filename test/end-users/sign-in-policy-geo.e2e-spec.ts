import { checksSettled, freshIp, PLACES, UA } from '../anomalies/sign-ins';
import { createTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { GeoStub } from '../support/geo-stub';
import { codeIn, ReceivedMail, startSmtpReceiver, SmtpReceiver } from '../support/smtp-receiver';
import { aTenant, anEndUser, bearer, Tenant, TestEndUser } from './support';

/**
 * Policies for the geo kinds (decision 0326): new_country and impossible_travel are judged before
 * the session from the address's location against the user's geolocated sessions. The geolocation
 * provider is the local stub; everything else is real.
 */
describe('step-up on risk for new_country and impossible_travel', () => {
  let t: TestApp;
  let geo: GeoStub;
  let smtp: SmtpReceiver;
  beforeAll(async () => {
    geo = await GeoStub.start();
    smtp = await startSmtpReceiver();
    t = await createTestApp({ SMTP_URL: smtp.url, TRUST_PROXY: 'true', GEO_TOKEN: 'geo-test-token', GEO_API_URL: geo.url });
  });
  afterAll(async () => {
    await t?.close();
    await geo?.close();
    await smtp?.stop();
  });

  const ipIn = (place: { country: string; city: string; loc: string }) => {
    const ip = freshIp();
    geo.answer(ip, place);
    return ip;
  };
  const setPolicy = (tenant: Tenant, body: Record<string, unknown>) =>
    t.http().put(`/e/v1/developer/workspaces/${tenant.ws.id}/sign-in-policy/`).set(tenant.dev.auth).send(body);
  const login = (user: TestEndUser, ip: string, ua = UA.chromeMac()) =>
    t
      .http()
      .post('/e/v1/auth/login/')
      .set('User-Agent', ua)
      .set('X-Forwarded-For', ip)
      .send({ client_id: user.clientId, email: user.email, password: user.password });

  /** The first mail to the user whose subject says `about` (alerts of earlier sign-ins may come first). */
  async function mailTo(user: TestEndUser, about: string) {
    let found: ReceivedMail | undefined;
    await eventually(() => {
      found = smtp.messagesTo(user.email).find((m) => m.subject.includes(about));
      expect(found).toBeDefined();
    });
    return found!;
  }

  /** A user whose first sign-in came from Paris and was geolocated (the baseline). */
  async function parisUser(tenant: Tenant): Promise<TestEndUser> {
    const user = await anEndUser(t, tenant.client, { smtp });
    expect((await login(user, ipIn(PLACES.paris))).status).toBe(200);
    await checksSettled(t);
    const [row] = await t.dataSource.query(`SELECT country FROM end_user_sessions WHERE user_id = $1`, [user.id]);
    expect(row.country).toBe('FR');
    return user;
  }

  it('sets the geo kinds through the developer API with the device kinds', async () => {
    const tenant = await aTenant(t);
    const set = await setPolicy(tenant, { new_country: 'challenge', impossible_travel: 'block' }).expect(200);
    expect(set.body).toEqual({
      workspace_id: tenant.ws.id,
      new_device: 'allow',
      new_ip: 'allow',
      new_country: 'challenge',
      impossible_travel: 'block',
      updated_at: expect.any(String),
    });
    for (const body of [{ new_country: 'sometimes' }, { impossible_travel: null }, { new_planet: 'block' }]) {
      expect((await setPolicy(tenant, body)).status).toBe(400);
    }
  });

  it('challenges a sign-in from a new country; the mailed code finishes it and the anomaly names the policy', async () => {
    const tenant = await aTenant(t);
    const user = await parisUser(tenant);
    await setPolicy(tenant, { new_country: 'challenge' }).expect(200);

    // Same device and country, another address: nothing to act on.
    expect((await login(user, ipIn(PLACES.lille))).body.access_token).toEqual(expect.any(String));
    await checksSettled(t);
    // Tokyo: a new country (and impossible travel, whose policy is allow).
    const tokyo = ipIn(PLACES.tokyo);
    const challenged = await login(user, tokyo);
    expect(challenged.body).toEqual({ mfa_required: true, mfa_token: expect.any(String), methods: ['email_code'] });
    const mail = await mailTo(user, 'sign-in code');
    const done = await t
      .http()
      .post('/e/v1/auth/login/mfa/')
      // The second step comes from the same browser and address as the first.
      .set('User-Agent', UA.chromeMac())
      .set('X-Forwarded-For', tokyo)
      .send({ mfa_token: challenged.body.mfa_token, code: codeIn(mail) })
      .expect(200);
    await checksSettled(t);
    await eventually(async () => {
      const anomalies = (await t.http().get('/user/security/anomalies/').set(bearer(done.body.access_token)).expect(200)).body.results as {
        kind: string;
        metadata: Record<string, unknown>;
      }[];
      expect(anomalies.find((a) => a.kind === 'new_country')?.metadata).toMatchObject({ country: 'JP', policy: 'challenge' });
      expect(anomalies.find((a) => a.kind === 'impossible_travel')?.metadata.policy).toBeUndefined();
    });
  });

  it('blocks impossible travel: 403 sign_in_blocked, no session, the user mailed; an unlocatable address is not judged', async () => {
    const tenant = await aTenant(t);
    const user = await parisUser(tenant);
    await setPolicy(tenant, { impossible_travel: 'block' }).expect(200);

    const blocked = await login(user, ipIn(PLACES.tokyo));
    expect(blocked.status).toBe(403);
    expect(blocked.body.error).toBe('sign_in_blocked');
    await mailTo(user, 'blocked a sign-in');
    const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM end_user_sessions WHERE user_id = $1`, [user.id]);
    expect(n).toBe(1);
    await eventually(async () => {
      const audit = await t
        .http()
        .get('/developer/audit/')
        .query({ workspace_id: tenant.ws.id, event_type: 'sign_in_blocked' })
        .set(tenant.dev.auth)
        .expect(200);
      expect(audit.body.results[0]?.metadata).toMatchObject({ kinds: ['impossible_travel'], policy: 'block' });
    });

    // An address the provider does not know (404): the geo kinds cannot fire, the device kinds still can.
    expect((await login(user, freshIp())).body.access_token).toEqual(expect.any(String));
  });
});
