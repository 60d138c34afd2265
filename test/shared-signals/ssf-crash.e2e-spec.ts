import request from 'supertest';
import { SPAWN_HOOK_TIMEOUT_MS } from '../support/app-process';
import { CrashScenario, scimTenantAt } from '../support/crash';
import { eventually } from '../support/eventually';
import { aUserName, PATCH_OP, userBody } from '../scim/scim-support';
import { ACCOUNT_DISABLED, PUSH, PushReceiver, SESSION_REVOKED, SetClaims, verifySet } from './ssf-support';

const USERS = 150;
const WRITERS = 10;

/**
 * The transmitter's outbox across a kill -9 (decision 0952): SCIM deactivations run against an
 * instance that is killed with SIGKILL while it acknowledges them, fans them out and pushes their
 * SETs (a few pushes refused, so some wait in backoff); started again, it delivers account-disabled
 * and session-revoked for every deactivation it acknowledged. At least once: a SET may come twice,
 * none is missing.
 */
describe('shared signals across a kill -9', () => {
  const crash = new CrashScenario('ssf-crash', {
    JOBS_LEASE_MS: '2000',
    DIRECTORY_EVENTS_SEAL_INTERVAL_MS: '50',
    WEBHOOK_TIMEOUT_MS: '5000',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  });
  const push = new PushReceiver();
  afterAll(async () => {
    await crash.close();
    await push.stop();
  }, SPAWN_HOOK_TIMEOUT_MS);

  it(
    'delivers the SETs of every acknowledged deactivation',
    async () => {
      await push.start();
      const crashed = await crash.start();
      const http = () => request(crashed.baseUrl);
      const { tenant, scim } = await scimTenantAt(crashed.baseUrl);
      const registered = await http()
        .post('/developer/ssf/receivers/')
        .set(tenant.auth)
        .send({ workspace_id: tenant.workspaceId, name: 'access revocation', default_subjects: 'ALL' })
        .expect(201);
      const { client_id, client_secret } = registered.body as { client_id: string; client_secret: string };
      const token = await http()
        .post('/oauth/token')
        .auth(client_id, client_secret)
        .type('form')
        .send({ grant_type: 'client_credentials', scope: 'ssf' })
        .expect(200);
      await http()
        .post('/ssf/streams')
        .set({ Authorization: `Bearer ${token.body.access_token as string}` })
        .send({ delivery: { method: PUSH, endpoint_url: push.url }, events_requested: [ACCOUNT_DISABLED, SESSION_REVOKED] })
        .expect(201);

      const users: string[] = [];
      const queue = Array.from({ length: USERS }, () => aUserName('crash'));
      await Promise.all(
        Array.from({ length: WRITERS }, async () => {
          for (let userName = queue.pop(); userName; userName = queue.pop()) {
            await http()
              .post('/scim/v2/Users')
              .set(scim)
              .send(JSON.stringify(userBody(userName)))
              .expect(201);
            users.push(userName);
          }
        }),
      );
      const ids = new Map<string, string>();
      const listed = (await http().get('/scim/v2/Users').query({ count: USERS }).set(scim).expect(200)).body.Resources as {
        id: string;
        userName: string;
      }[];
      for (const u of listed) ids.set(u.userName, u.id);

      // The first pushes are refused: those SETs wait in the job queue's backoff when the kill comes.
      push.failNext.push(503, 503, 503, 503, 503);
      const attempted = new Set<string>();
      const acknowledged: string[] = [];
      let killed = false;
      const toDeactivate = [...users];
      const writer = async () => {
        for (let userName = toDeactivate.pop(); userName && !killed; userName = toDeactivate.pop()) {
          attempted.add(userName);
          try {
            const res = await http()
              .patch(`/scim/v2/Users/${ids.get(userName)!}`)
              .set(scim)
              .send(JSON.stringify({ schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] }));
            if (res.status === 200) acknowledged.push(userName);
          } catch {
            // The connection died with the process: not acknowledged.
          }
        }
      };
      const writers = Array.from({ length: WRITERS }, writer);
      await eventually(() => expect(acknowledged.length).toBeGreaterThanOrEqual(40), { timeoutMs: 120_000 });
      await crash.kill();
      killed = true;
      await Promise.all(writers);
      expect(acknowledged.length).toBeLessThan(USERS);

      const restarted = await crash.restart();
      const verified = new Map<string, SetClaims>();
      const arrived = async () => {
        for (const p of push.received) {
          const jti = JSON.parse(Buffer.from(p.token.split('.')[1], 'base64url').toString()).jti as string;
          // Same issuer: the instance came back on its public URL, and signs with the keys it kept.
          if (!verified.has(jti)) verified.set(jti, await verifySet(restarted, p.token, client_id));
        }
        const of = (type: string) =>
          new Set(
            [...verified.values()].filter((c) => Object.keys(c.events)[0] === type).map((c) => (c.sub_id as { email: string }).email),
          );
        return { disabled: of(ACCOUNT_DISABLED), revoked: of(SESSION_REVOKED) };
      };
      const { disabled, revoked } = await eventually(
        async () => {
          const got = await arrived();
          expect(acknowledged.filter((u) => !got.disabled.has(u))).toEqual([]);
          expect(acknowledged.filter((u) => !got.revoked.has(u))).toEqual([]);
          return got;
        },
        { timeoutMs: 120_000 },
      );
      // Nothing about a person whose deactivation was never sent.
      for (const u of [...disabled, ...revoked]) expect(attempted.has(u)).toBe(true);
      // A repeat is the same SET (same jti, same token), not a new one.
      const tokens = new Map<string, Set<string>>();
      for (const p of push.received) {
        const jti = JSON.parse(Buffer.from(p.token.split('.')[1], 'base64url').toString()).jti as string;
        tokens.set(jti, (tokens.get(jti) ?? new Set()).add(p.token));
      }
      for (const set of tokens.values()) expect(set.size).toBe(1);
    },
    SPAWN_HOOK_TIMEOUT_MS + 240_000,
  );
});
