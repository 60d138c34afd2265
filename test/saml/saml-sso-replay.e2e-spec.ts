import { randomUUID } from 'node:crypto';
import { Clock } from '../../src/common/clock';
import type { Tenant, TestEndUser } from '../end-users/support';
import { createTestApp, TestApp } from '../support/app';
import { aDeveloper, aWorkspace, TestDeveloper, TestWorkspace } from '../support/factories';
import { aRegisteredSp, auditEvents, craftedRequest, formFields } from './support/saml-sso.helpers';
import { samlEnv } from './support/saml-env';
import { aSignedInBrowser, twoInstancesForSuite } from './support/two-instances';

const newId = () => `_${randomUUID().replace(/-/g, '')}`;

/** Each AuthnRequest is answered once, and only while it is fresh (decision 0208). */
describe('AuthnRequest replay and freshness', () => {
  let t: TestApp;
  let dev: TestDeveloper;
  let ws: TestWorkspace;
  beforeAll(async () => {
    t = await createTestApp(samlEnv());
    dev = await aDeveloper(t);
    ws = await aWorkspace(t, dev);
  });
  afterAll(async () => {
    t.get<Clock>(Clock).reset();
    await t.close();
  });

  const failureOf = async (spId: string, requestId: string) =>
    (await auditEvents(t, dev, ws, 'saml_sso_failure')).find((e) => e.target_id === spId && e.metadata.request_id === requestId);

  it('answers a request once; the same request again is refused with 400 and audited as replayed_request', async () => {
    const sp = await aRegisteredSp(t, dev, ws);
    const id = newId();
    const path = craftedRequest(sp.entityId, { id });
    await t.http().get(path).expect(302);
    const replay = await t.http().get(path).expect(400);
    expect(replay.headers['content-type']).toMatch(/text\/html/);
    expect(replay.text).toContain('This sign-in request was already used');
    expect(replay.text).not.toContain('SAMLResponse');
    expect(await failureOf(sp.id, id)).toMatchObject({
      severity: 'warn',
      actor_type: 'anonymous',
      metadata: expect.objectContaining({ reason: 'replayed_request', sp_entity_id: sp.entityId }),
    });
    // Replayed with another RelayState: the same request all the same.
    await t.http().get(`${path}&RelayState=other`).expect(400);
  });

  it('keeps request IDs per SP: another SP may use the same ID', async () => {
    const [a, b] = [await aRegisteredSp(t, dev, ws), await aRegisteredSp(t, dev, ws)];
    const id = newId();
    await t.http().get(craftedRequest(a.entityId, { id })).expect(302);
    await t.http().get(craftedRequest(b.entityId, { id })).expect(302);
  });

  it('does not use up the ID of a request it refused for another reason', async () => {
    const sp = await aRegisteredSp(t, dev, ws);
    const id = newId();
    await t
      .http()
      .get(craftedRequest(sp.entityId, { id, acsUrl: 'https://attacker.example.test/acs' }))
      .expect(400);
    await t.http().get(craftedRequest(sp.entityId, { id })).expect(302);
  });

  it('refuses a request issued more than 5 minutes 30 seconds ago, or more than 30 seconds ahead, audited with the reason', async () => {
    const sp = await aRegisteredSp(t, dev, ws);
    const old = newId();
    const res = await t
      .http()
      .get(craftedRequest(sp.entityId, { id: old, issueInstant: '2001-09-09T01:46:40Z' }))
      .expect(400);
    expect(res.text).toContain('issued at 2001-09-09T01:46:40Z, more than 5 minutes ago');
    expect((await failureOf(sp.id, old))?.metadata).toMatchObject({ reason: 'stale_request', issue_instant: '2001-09-09T01:46:40Z' });
    const early = newId();
    const ahead = new Date(Date.now() + 10 * 60_000).toISOString();
    expect(
      (
        await t
          .http()
          .get(craftedRequest(sp.entityId, { id: early, issueInstant: ahead }))
          .expect(400)
      ).text,
    ).toContain('in the future');
    expect((await failureOf(sp.id, early))?.metadata.reason).toBe('early_request');
    // Inside the window, at either edge less a margin for the request's own trip: accepted.
    for (const offset of [-5 * 60_000, 20_000]) {
      const issueInstant = new Date(Date.now() + offset).toISOString();
      await t.http().get(craftedRequest(sp.entityId, { issueInstant })).expect(302);
    }
  });

  it('forgets a used ID once any request carrying it would be stale', async () => {
    const sp = await aRegisteredSp(t, dev, ws);
    const id = newId();
    await t.http().get(craftedRequest(sp.entityId, { id })).expect(302);
    const clock = t.get<Clock>(Clock);
    clock.advance(6 * 60_000 + 1000);
    try {
      // A fresh request (by the moved clock) that happens to reuse the ID: nothing to replay any more.
      await t
        .http()
        .get(craftedRequest(sp.entityId, { id, issueInstant: clock.now().toISOString() }))
        .expect(302);
    } finally {
      clock.reset();
    }
  });

  it('refuses on a second instance a request answered by the first', async () => {
    const other = await createTestApp(samlEnv());
    try {
      const sp = await aRegisteredSp(t, dev, ws);
      const path = craftedRequest(sp.entityId);
      await t.http().get(path).expect(302);
      const replay = await other.http().get(path).expect(400);
      expect(replay.text).toContain('already used');
    } finally {
      await other.close();
    }
  });
});

/**
 * A signed-in browser's request is answered at once, its ID claimed in the statement that writes the assertion's
 * audit row (decision 0988): still once, across instances, and once when the same request races itself.
 */
describe('AuthnRequest replay from a signed-in browser', () => {
  const suite = twoInstancesForSuite();
  let t: TestApp;
  let other: TestApp;
  let tenant: Tenant;
  let user: TestEndUser;
  beforeAll(() => ({ t, other, tenant, user } = suite));

  /** An SP and a browser signed in at the first instance; its session cookie, which the second instance honours too. */
  const signedIn = () => aSignedInBrowser(suite);

  const rowsFor = async (eventType: string, requestId: string) =>
    (await auditEvents(t, tenant.dev, tenant.ws, eventType)).filter((e) => e.metadata.request_id === requestId);

  it('answers the request once with one saml_sso_success row; the same request is refused here and on a second instance', async () => {
    const { sp, cookie } = await signedIn();
    const id = newId();
    sp.cache.ids.set(id, new Date().toISOString());
    const path = craftedRequest(sp.entityId, { id, acsUrl: sp.acsUrl });
    const page = await t.http().get(path).set('Cookie', cookie).expect(200);
    const { profile } = await sp.saml.validatePostResponseAsync({ SAMLResponse: formFields(page.text).SAMLResponse });
    expect(profile?.nameID).toBe(user.email);
    for (const app of [t, other]) {
      const replay = await app.http().get(path).set('Cookie', cookie).expect(400);
      expect(replay.text).toContain('already used');
      expect(replay.text).not.toContain('SAMLResponse');
    }
    // The second instance answers the browser's new requests: the refusal above was the replay's, not a missing session.
    await other
      .http()
      .get(craftedRequest(sp.entityId, { acsUrl: sp.acsUrl }))
      .set('Cookie', cookie)
      .expect(200);
    expect(await rowsFor('saml_sso_success', id)).toHaveLength(1);
    const failures = await rowsFor('saml_sso_failure', id);
    expect(failures.map((f) => f.metadata.reason)).toEqual(['replayed_request', 'replayed_request']);
  });

  it('answers one of the same request sent six times at once to two instances, and writes one success row', async () => {
    const { sp, cookie } = await signedIn();
    const id = newId();
    const path = craftedRequest(sp.entityId, { id, acsUrl: sp.acsUrl });
    const answers = await Promise.all([t, other, t, other, t, other].map((app) => app.http().get(path).set('Cookie', cookie)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    expect(await rowsFor('saml_sso_success', id)).toHaveLength(1);
  });
});
