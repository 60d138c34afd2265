import { randomUUID } from 'node:crypto';
import { AnomalyListener } from '../../src/anomalies/detection/anomaly.listener';
import type { AnomalyView } from '../../src/anomalies/entities/security-anomaly.entity';
import type { TestApp } from '../support/app';
import { aDeveloper, anOAuthClient, aWorkspace, TestOAuthClient, uniqueEmail } from '../support/factories';

/** Real user agents: the detectors only see what the parser makes of them. */
export const UA = {
  chromeMac: (version = '120.0.1.0') =>
    `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${version} Safari/537.36`,
  firefoxWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0',
};

/** Places the geo stub answers with (ipinfo-style). */
export const PLACES = {
  paris: { country: 'FR', city: 'Paris', loc: '48.8566,2.3522' },
  tokyo: { country: 'JP', city: 'Tokyo', loc: '35.6762,139.6503' },
  lille: { country: 'FR', city: 'Lille', loc: '50.6292,3.0573' }, // ~204 km from Paris
};

let ipCounter = 0;
/** A fresh public-looking IPv4 address (TEST-NET-3 space), unique within the test run. */
export function freshIp(): string {
  ipCounter += 1;
  return `203.0.${Math.floor(ipCounter / 250) + 113}.${(ipCounter % 250) + 1}`;
}

export interface EndUserAccount {
  client: TestOAuthClient;
  email: string;
  password: string;
  workspaceId: string;
}

/** A workspace with its own OAuth client and one registered end user (through the real API). */
export async function anEndUser(t: TestApp, clientName = 'Acme Notes'): Promise<EndUserAccount> {
  const dev = await aDeveloper(t);
  const ws = await aWorkspace(t, dev);
  const client = await anOAuthClient(t, dev, ws, clientName);
  const email = uniqueEmail('enduser');
  const password = `pw-${randomUUID()}`;
  const res = await t.http().post('/e/v1/auth/register/').send({ client_id: client.client_id, email, password, first_name: 'Ada' });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { client, email, password, workspaceId: ws.id };
}

export interface SignedIn {
  sessionId: string;
  accessToken: string;
  auth: { Authorization: string };
  elapsedMs: number;
}

/** A real sign-in from the given browser and address (X-Forwarded-For; the app trusts the proxy). */
export async function signIn(t: TestApp, user: EndUserAccount, from: { ua: string; ip: string }): Promise<SignedIn> {
  const started = Date.now();
  const res = await t
    .http()
    .post('/e/v1/auth/login/')
    .set('User-Agent', from.ua)
    .set('X-Forwarded-For', from.ip)
    .send({ client_id: user.client.client_id, email: user.email, password: user.password });
  const elapsedMs = Date.now() - started;
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  const accessToken = res.body.access_token as string;
  return { sessionId: res.body.session_id as string, accessToken, auth: { Authorization: `Bearer ${accessToken}` }, elapsedMs };
}

/** Waits until every anomaly check queued so far has finished. */
export async function checksSettled(t: TestApp): Promise<void> {
  // The event listener may be one macrotask behind the response; let it enqueue first.
  await new Promise((resolve) => setImmediate(resolve));
  await t.get<AnomalyListener>(AnomalyListener).idle();
}

/** Signs in and waits for the anomaly check of that sign-in. */
export async function signInAndSettle(t: TestApp, user: EndUserAccount, from: { ua: string; ip: string }): Promise<SignedIn> {
  const s = await signIn(t, user, from);
  await checksSettled(t);
  return s;
}

export async function anomaliesOf(t: TestApp, s: SignedIn): Promise<AnomalyView[]> {
  const res = await t.http().get('/user/security/anomalies/').set(s.auth).expect(200);
  return (res.body as { results: AnomalyView[] }).results;
}

/** Moves a session back in time, as if it had been created `hours` earlier. */
export async function backdateSession(t: TestApp, sessionId: string, hours: number): Promise<void> {
  await t.dataSource.query(
    `UPDATE end_user_sessions SET created_at = created_at - make_interval(secs => $2), last_seen_at = last_seen_at - make_interval(secs => $2) WHERE id = $1`,
    [sessionId, hours * 3600],
  );
}
