import { randomBytes, randomInt } from 'node:crypto';
import { decodeJwt } from 'jose';
import request from 'supertest';
import {
  aPkcePair,
  anApplication,
  authorizeQuery,
  basic,
  REDIRECT_URI,
  redirectParams,
  tokenRequest,
  TestApplication,
} from '../oidc/support';
import { samlEnv } from '../saml/support/saml-env';
import { createTestApp, TestApp } from '../support/app';
import { anOidcTenant, OidcTenant, setActive } from './support/oidc-tenant';
import { StubOp } from './support/stub-op';
import { authnRequestIdOf, UpstreamSamlIdp } from './support/upstream-saml-idp';
import { userBody } from '../scim/scim-support';

const STEPS = 1000;
const PEOPLE = 8;
/**
 * Two minutes on a quiet machine (about four HTTP requests and three queries a step): its own ceiling,
 * above the suite's four minutes, so that a loaded machine slows it without failing it.
 */
const SEQUENCE_CEILING_MS = 900_000;

/** Within this long of its post an answer is still valid (the IdP gives five minutes), so a re-POST meets the spent ID. */
const REPLAY_STILL_VALID_MS = 4 * 60_000;

/** A small seeded generator (mulberry32): the same seed replays the same sequence. */
function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
  return { next, below: (n: number) => Math.floor(next() * n) };
}

/** What the company's directory says about one person: the same at its two IdPs and over SCIM. */
interface Person {
  label: string;
  email: string;
  /** The upstream subject at each connection: the OIDC `sub`, the SAML persistent NameID (never reused or changed). */
  subjects: [string, string];
  /** The last SAML answer this person's browser posted to our ACS, and that browser's cookie: for a re-POST. */
  lastSamlPost?: { response: string; cookie: string; at: number };
  /** Our account, once SCIM or a just-in-time sign-in created it. */
  accountId?: string;
  active: boolean;
  /** The `sub` each application first received for this person. */
  subs: Map<string, string>;
}

/** A sign-in's end as the browser sees it: the redirect to the application, or the refusal's status. */
type Answered = { location: string } | { refused: number };

/**
 * A randomized sequence (seeded; the seed is printed on failure, SSO_SEQUENCE_SEED replays it) of
 * the directory's life against two connections of one workspace with just-in-time creation, one
 * OpenID Connect (a stub OP) and one SAML (a samlify IdP, persistent NameID): renames (at the IdPs
 * and over SCIM), deactivations, reactivations, SCIM re-POSTs, re-POSTs of a spent SAML answer to the
 * ACS, and sign-ins through either connection into either of two applications, driven over HTTP. After
 * every step: one account per email, one person per upstream subject, the bindings where the model
 * says, and every application's `sub` for a person never changing (decision 0946).
 */
describe('SSO connections: a randomized sequence of directory changes and upstream sign-ins (OIDC and SAML)', () => {
  let t: TestApp;
  let op: StubOp;
  let tenant: OidcTenant;
  let saml: { id: string; sp: { entityId: string; acsUrl: string } };
  const idp = new UpstreamSamlIdp();
  let apps: TestApplication[];
  /** The connection ids, in the order of Person.subjects. */
  let connectionIds: [string, string];
  beforeAll(async () => {
    [t, op] = await Promise.all([createTestApp(samlEnv({ OAUTH_JWKS_ALLOW_PRIVATE_TARGETS: 'true' })), StubOp.start()]);
    tenant = await anOidcTenant(t, op.issuer, { jit: true });
    const created = await t
      .http()
      .post('/developer/external-providers/')
      .set(tenant.dev.auth)
      .send({
        workspace_id: tenant.ws.id,
        name: 'Acme SAML IdP',
        protocol: 'saml',
        jit: true,
        saml: { idp_entity_id: idp.entityId, idp_sso_url: idp.ssoUrl, idp_certificates: [idp.keys.certPem] },
      });
    expect(created.status).toBe(201);
    saml = { id: created.body.id as string, sp: { entityId: created.body.sp_entity_id as string, acsUrl: created.body.acs_url as string } };
    connectionIds = [tenant.connectionId, saml.id];
    apps = [tenant.app, (await anApplication(t, {}, tenant)).app];
  });
  afterAll(async () => {
    await op?.stop();
    await t?.close();
  });

  it(
    `holds one person per subject and email and a stable sub for every application over ${STEPS} steps`,
    async () => {
      const seed = Number(process.env.SSO_SEQUENCE_SEED ?? randomInt(2 ** 31));
      const random = seeded(seed);
      const scim = tenant.scim;
      const workspaceId = tenant.ws.id;
      const freshEmail = (label: string) => `${label}.${randomBytes(4).toString('hex')}@acme.example`;
      const people: Person[] = Array.from({ length: PEOPLE }, (_, i) => ({
        label: `p${i}`,
        email: freshEmail(`p${i}`),
        subjects: [`00u${randomBytes(6).toString('hex')}`, `saml-${randomBytes(6).toString('hex')}`],
        active: true,
        subs: new Map(),
      }));
      const log: string[] = [];
      const counts: Record<string, number> = {};
      let replayed = 0;

      const steps: Record<string, (p: Person) => Promise<void>> = {
        async rename(p) {
          p.email = freshEmail(p.label);
          if (!p.accountId) return;
          const res = await scim.patch(`/Users/${p.accountId}`, {
            schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
            Operations: [
              { op: 'replace', path: 'userName', value: p.email },
              { op: 'replace', path: 'emails', value: [{ value: p.email, primary: true, type: 'work' }] },
            ],
          });
          expect(res.status).toBe(200);
        },
        async deactivate(p) {
          if (!p.accountId) return;
          await setActive(tenant, p.accountId, false);
          p.active = false;
        },
        async reactivate(p) {
          if (!p.accountId) return;
          await setActive(tenant, p.accountId, true);
          p.active = true;
        },
        async rePost(p) {
          const res = await scim.post('/Users', userBody(p.email, { active: true }));
          if (p.accountId && p.active) {
            // An active holder of the name: a conflict, never a second account.
            expect(res.status).toBe(409);
            return;
          }
          // A deactivated holder comes back as the same account (re-provisioning); nobody: a new account.
          expect(res.status).toBe(201);
          if (p.accountId) expect(res.body.id).toBe(p.accountId);
          p.accountId = res.body.id as string;
          p.active = true;
        },
        async rePostAcs(p) {
          // The same signed answer again, from the browser that posted it: its assertion ID is spent,
          // whatever became of the sign-in it carried, and nothing in the directory moves.
          if (!p.lastSamlPost) return;
          const res = await postAcs(p.lastSamlPost.response, p.lastSamlPost.cookie);
          replayed++;
          expect(res.status).toBe(400);
          // Past its validity (five minutes, and the browser's ten) the answer is refused as expired first.
          if (Date.now() - p.lastSamlPost.at < REPLAY_STILL_VALID_MS) expect(res.text).toContain('already used');
          else expect(res.text).toContain('Sign-in refused');
        },
        async signIn(p) {
          const which = random.below(2);
          const app = apps[random.below(2)];
          const outcome = await signInThrough(which, p, app);
          if (p.accountId && !p.active) {
            expect(outcome).toEqual({ refused: 403 });
            return;
          }
          if (!('sub' in outcome)) throw new Error(`sign-in refused with ${outcome.refused}`);
          // Just-in-time creation on: the first sign-in of an unknown person creates their account.
          p.accountId ??= outcome.userId;
          expect(outcome.userId).toBe(p.accountId);
          const first = p.subs.get(app.client_id);
          if (first) expect(outcome.sub).toBe(first);
          else p.subs.set(app.client_id, outcome.sub);
        },
      };
      const kinds = Object.keys(steps);

      try {
        for (let step = 0; step < STEPS; step++) {
          // Sign-ins are half the steps: they are where bindings are made and used.
          const kind = random.next() < 0.5 ? 'signIn' : kinds[random.below(kinds.length)];
          const person = people[random.below(PEOPLE)];
          log.push(
            `${step} ${kind} ${person.label} (${person.email}, account ${person.accountId ?? '-'}, ${person.active ? 'active' : 'inactive'})`,
          );
          await steps[kind](person);
          counts[kind] = (counts[kind] ?? 0) + 1;
          await expectInvariants(workspaceId, people);
        }
      } catch (err) {
        const message = `binding sequence failed with seed ${seed} (SSO_SEQUENCE_SEED=${seed} replays it); last steps:\n${log.slice(-15).join('\n')}`;
        console.error(message);
        throw new Error(`${message}\n${(err as Error).message}`);
      }
      expect(counts.signIn).toBeGreaterThan(STEPS / 3);
      for (const kind of kinds) expect(counts[kind]).toBeGreaterThan(STEPS / 20);
      expect(people.filter((p) => p.subs.size === 2).length).toBeGreaterThan(0);
      expect(replayed).toBeGreaterThan(0);
      // Someone signed in through both protocols: one person, bound at both connections.
      const both = await t.dataSource.query<{ user_id: string }[]>(
        'SELECT user_id FROM sso_bindings WHERE workspace_id = $1 GROUP BY user_id HAVING count(DISTINCT connection_id) = 2',
        [workspaceId],
      );
      expect(both.length).toBeGreaterThan(0);
    },
    SEQUENCE_CEILING_MS,
  );

  /** One account per email, one per person; every binding names the model's account for its subject. */
  async function expectInvariants(workspaceId: string, people: Person[]) {
    const accounts = await t.dataSource.query<{ id: string; email: string }[]>(
      'SELECT id, lower(email) AS email FROM end_users WHERE workspace_id = $1 AND oauth_client_id IS NULL',
      [workspaceId],
    );
    const modelled = people.filter((p) => p.accountId);
    expect(accounts.map((a) => a.id).sort()).toEqual(modelled.map((p) => p.accountId).sort());
    expect(new Set(accounts.map((a) => a.email)).size).toBe(accounts.length);
    const bindings = await t.dataSource.query<{ connection_id: string; subject: string; user_id: string }[]>(
      'SELECT connection_id, subject, user_id FROM sso_bindings WHERE workspace_id = $1',
      [workspaceId],
    );
    for (const binding of bindings) {
      const which = connectionIds.indexOf(binding.connection_id);
      expect(which).toBeGreaterThanOrEqual(0);
      const owner = people.find((p) => p.subjects[which] === binding.subject);
      expect({ subject: binding.subject, user: binding.user_id }).toEqual({ subject: binding.subject, user: owner?.accountId });
    }
    expect(new Set(bindings.map((b) => `${b.connection_id} ${b.user_id}`)).size).toBe(bindings.length);
  }

  /**
   * A sign-in at HTTP level through connection `which` (0: OIDC, 1: SAML), with the application's
   * authorization request as `next`; when it lands at the application, the application's token
   * exchange. Answers the application's `sub` and our user id, or the refusal's status.
   */
  async function signInThrough(
    which: number,
    p: Person,
    app: TestApplication,
  ): Promise<{ sub: string; userId: string } | { refused: number }> {
    const pkce = aPkcePair();
    const next = `/oauth/authorize?${authorizeQuery(app, pkce, { scope: 'openid' })}`;
    const answered = which === 0 ? await throughOidc(p.subjects[0], p.email, next) : await throughSaml(p, next);
    if ('refused' in answered) return answered;
    expect(answered.location.startsWith(REDIRECT_URI)).toBe(true);
    const appCode = redirectParams(answered.location).get('code')!;
    const tokens = await tokenRequest(
      t,
      { grant_type: 'authorization_code', code: appCode, redirect_uri: REDIRECT_URI, code_verifier: pkce.verifier },
      basic(app),
    );
    expect(tokens.status).toBe(200);
    const sub = decodeJwt(tokens.body.id_token as string).sub!;
    const [attempt] = await t.dataSource.query<{ user_id: string }[]>(
      'SELECT user_id FROM sso_attempts WHERE connection_id = $1 AND subject = $2 AND outcome = $3 ORDER BY at DESC LIMIT 1',
      [connectionIds[which], p.subjects[which], 'success'],
    );
    return { sub, userId: attempt.user_id };
  }

  /** Our start, the stub OP's code for this subject and email, our callback (which answers the application's code at once). */
  async function throughOidc(subject: string, email: string, next: string): Promise<Answered> {
    const agent = request.agent(t.app.getHttpServer());
    const started = await agent.get(`/auth/sso/${tenant.connectionId}/`).query({ next });
    expect(started.status).toBe(303);
    const sent = new URL(started.headers.location as string).searchParams;
    const code = op.issueCode({ nonce: sent.get('nonce')!, sub: subject }, (d) => op.sign({ ...d, email, email_verified: true }));
    const answered = await agent.get(`/auth/sso/${tenant.connectionId}/callback`).query({ code, state: sent.get('state'), iss: op.issuer });
    return answered.status === 303 ? { location: answered.headers.location as string } : { refused: answered.status };
  }

  /**
   * Our start (an AuthnRequest over HTTP-Redirect and the browser's sso_saml cookie), the IdP's signed
   * answer to that request for this NameID and email, posted to our ACS with the cookie (which answers
   * the application's code at once). The browser is a cookie header: sso_saml is a Secure cookie,
   * which a cookie jar keeps away from the test's plain-HTTP server.
   */
  async function throughSaml(p: Person, next: string): Promise<Answered> {
    const started = await t.http().get(`/auth/sso/${saml.id}/`).query({ next });
    expect(started.status).toBe(303);
    const cookie = ([] as string[])
      .concat(started.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('sso_saml='))
      ?.split(';')[0];
    if (!cookie) throw new Error('no sso_saml cookie');
    const response = await idp.signedResponse(
      saml.sp,
      { subject: p.subjects[1], email: p.email },
      { inResponseTo: authnRequestIdOf(started.headers.location as string) },
    );
    p.lastSamlPost = { response, cookie, at: Date.now() };
    const answered = await postAcs(response, cookie);
    return answered.status === 303 ? { location: answered.headers.location as string } : { refused: answered.status };
  }

  function postAcs(response: string, cookie: string) {
    return t.http().post(`/auth/sso/${saml.id}/saml/acs`).type('form').set('Cookie', cookie).send({ SAMLResponse: response });
  }
});
