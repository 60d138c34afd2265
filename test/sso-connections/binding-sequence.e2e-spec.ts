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
import { createTestApp, TestApp } from '../support/app';
import { anOidcTenant, OidcTenant, setActive } from './support/oidc-tenant';
import { StubOp } from './support/stub-op';
import { userBody } from '../scim/scim-support';

const STEPS = 1000;
const PEOPLE = 8;
/**
 * Two minutes on a quiet machine (about four HTTP requests and three queries a step): its own ceiling,
 * above the suite's four minutes, so that a loaded machine slows it without failing it.
 */
const SEQUENCE_CEILING_MS = 900_000;

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
  /** The upstream subject at each connection (the IdPs never reuse or change it). */
  subjects: [string, string];
  /** Our account, once SCIM or a just-in-time sign-in created it. */
  accountId?: string;
  active: boolean;
  /** The `sub` each application first received for this person. */
  subs: Map<string, string>;
}

/**
 * A randomized sequence (seeded; the seed is printed on failure, OIDC_SEQUENCE_SEED replays it) of
 * the directory's life against two OIDC connections with just-in-time creation: renames (at the IdPs
 * and over SCIM), deactivations, reactivations, SCIM re-POSTs and sign-ins through either connection
 * into either of two applications, driven over HTTP. After every step: one account per email, one
 * person per upstream subject, the bindings where the model says, and every application's `sub` for a
 * person never changing.
 */
describe('SSO connections: a randomized sequence of directory changes and upstream sign-ins', () => {
  let t: TestApp;
  let ops: [StubOp, StubOp];
  let tenants: [OidcTenant, OidcTenant];
  let apps: TestApplication[];
  beforeAll(async () => {
    [t, ...ops] = await Promise.all([createTestApp({ OAUTH_JWKS_ALLOW_PRIVATE_TARGETS: 'true' }), StubOp.start(), StubOp.start()]);
    const first = await anOidcTenant(t, ops[0].issuer, { jit: true });
    const second = await anOidcTenant(t, ops[1].issuer, { jit: true }, first);
    tenants = [first, second];
    apps = [first.app, (await anApplication(t, {}, first)).app];
  });
  afterAll(async () => {
    await Promise.all(ops?.map((op) => op.stop()) ?? []);
    await t?.close();
  });

  it(
    `holds one person per subject and email and a stable sub for every application over ${STEPS} steps`,
    async () => {
      const seed = Number(process.env.OIDC_SEQUENCE_SEED ?? randomInt(2 ** 31));
      const random = seeded(seed);
      const scim = tenants[0].scim;
      const workspaceId = tenants[0].ws.id;
      const freshEmail = (label: string) => `${label}.${randomBytes(4).toString('hex')}@acme.example`;
      const people: Person[] = Array.from({ length: PEOPLE }, (_, i) => ({
        label: `p${i}`,
        email: freshEmail(`p${i}`),
        subjects: [`00u${randomBytes(6).toString('hex')}`, `aad-${randomBytes(6).toString('hex')}`],
        active: true,
        subs: new Map(),
      }));
      const log: string[] = [];
      const counts: Record<string, number> = {};

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
          await setActive(tenants[0], p.accountId, false);
          p.active = false;
        },
        async reactivate(p) {
          if (!p.accountId) return;
          await setActive(tenants[0], p.accountId, true);
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
        async signIn(p) {
          const which = random.below(2);
          const app = apps[random.below(2)];
          const outcome = await signInThrough(tenants[which], ops[which], p.subjects[which], p.email, app);
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
        const message = `binding sequence failed with seed ${seed} (OIDC_SEQUENCE_SEED=${seed} replays it); last steps:\n${log.slice(-15).join('\n')}`;
        console.error(message);
        throw new Error(`${message}\n${(err as Error).message}`);
      }
      expect(counts.signIn).toBeGreaterThan(STEPS / 3);
      for (const kind of kinds) expect(counts[kind]).toBeGreaterThan(STEPS / 20);
      expect(people.filter((p) => p.subs.size === 2).length).toBeGreaterThan(0);
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
      const which = tenants.findIndex((tenant) => tenant.connectionId === binding.connection_id);
      const owner = people.find((p) => p.subjects[which] === binding.subject);
      expect({ subject: binding.subject, user: binding.user_id }).toEqual({ subject: binding.subject, user: owner?.accountId });
    }
    expect(new Set(bindings.map((b) => `${b.connection_id} ${b.user_id}`)).size).toBe(bindings.length);
  }

  /**
   * A sign-in at HTTP level: the application's authorization request as `next`, our start, the
   * stub OP's code for this subject and email, our callback (which answers the application's code at
   * once), and the application's token exchange. Answers the application's `sub` and our user id.
   */
  async function signInThrough(
    tenant: OidcTenant,
    op: StubOp,
    subject: string,
    email: string,
    app: TestApplication,
  ): Promise<{ sub: string; userId: string } | { refused: number }> {
    const agent = request.agent(t.app.getHttpServer());
    const pkce = aPkcePair();
    const next = `/oauth/authorize?${authorizeQuery(app, pkce, { scope: 'openid' })}`;
    const started = await agent.get(`/auth/sso/${tenant.connectionId}/`).query({ next });
    expect(started.status).toBe(303);
    const sent = new URL(started.headers.location as string).searchParams;
    const code = op.issueCode({ nonce: sent.get('nonce')!, sub: subject }, (d) => op.sign({ ...d, email, email_verified: true }));
    const answered = await agent.get(`/auth/sso/${tenant.connectionId}/callback`).query({ code, state: sent.get('state'), iss: op.issuer });
    if (answered.status !== 303) return { refused: answered.status };
    const location = answered.headers.location as string;
    expect(location.startsWith(REDIRECT_URI)).toBe(true);
    const appCode = redirectParams(location).get('code')!;
    const tokens = await tokenRequest(
      t,
      { grant_type: 'authorization_code', code: appCode, redirect_uri: REDIRECT_URI, code_verifier: pkce.verifier },
      basic(app),
    );
    expect(tokens.status).toBe(200);
    const sub = decodeJwt(tokens.body.id_token as string).sub!;
    const [attempt] = await t.dataSource.query<{ user_id: string }[]>(
      'SELECT user_id FROM sso_attempts WHERE connection_id = $1 AND subject = $2 AND outcome = $3 ORDER BY at DESC LIMIT 1',
      [tenant.connectionId, subject, 'success'],
    );
    return { sub, userId: attempt.user_id };
  }
});
