import { anEndUserRow, aWorkspaceRow, itKeepsTheTenantContract, repositoriesForSuite } from '../../test/support/repository';
import type { Policy } from './sign-in-policy';
import { SignInPolicyRepository } from './sign-in-policy.repository';

const ALLOW_ALL: Policy = { new_device: 'allow', new_ip: 'allow', new_country: 'allow', impossible_travel: 'allow' };

describe('SignInPolicyRepository', () => {
  let policies: SignInPolicyRepository;
  const db = repositoriesForSuite([SignInPolicyRepository], (booted) => (policies = booted));

  const save = (workspaceId: string, policy: Policy) =>
    db.dataSource.transaction((tx) => policies.save(tx, workspaceId, policy, new Date()));

  /** A past session of the user, as the session table records it. */
  const aSession = (ws: string, user: string, at: Date, place: { ip: string; country?: string; latitude?: number; longitude?: number }) =>
    db.dataSource.query(
      `INSERT INTO end_user_sessions (workspace_id, user_id, kind, browser_family, os_family, ip_address, country, latitude, longitude,
         created_at, last_seen_at, expires_at)
       VALUES ($1, $2, 'browser', 'Firefox', 'Linux', $3, $4, $5, $6, $7, $7, $7::timestamptz + interval '1 day')`,
      [ws, user, place.ip, place.country ?? null, place.latitude ?? null, place.longitude ?? null, at],
    );

  it('ends at no row when the workspace has no policy, or one that allows everything', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const user = await anEndUserRow(db.dataSource, ws);
    const device = { browserFamily: 'Firefox', osFamily: 'Linux', ip: '203.0.113.1' };
    expect(await policies.evaluate(ws, user, device, new Date())).toBeNull();
    await save(ws, ALLOW_ALL);
    expect(await policies.evaluate(ws, user, device, new Date())).toBeNull();
  });

  it("answers the policy with what the user's sessions say of this device, and the geo history the policy needs", async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const user = await anEndUserRow(db.dataSource, ws);
    const now = new Date();
    const earlier = new Date(now.getTime() - 60 * 60_000);
    await aSession(ws, user, earlier, { ip: '203.0.113.1', country: 'DE', latitude: 52.52, longitude: 13.4 });
    const policy: Policy = { new_device: 'challenge', new_ip: 'allow', new_country: 'block', impossible_travel: 'challenge' };
    await save(ws, policy);

    const sameDevice = await policies.evaluate(ws, user, { browserFamily: 'Firefox', osFamily: 'Linux', ip: '203.0.113.1' }, now);
    expect(sameDevice?.policy).toEqual(policy);
    expect(sameDevice?.facts).toEqual({ anySession: true, pairSeen: true, tripleSeen: true });
    expect(sameDevice?.history.knownCountries).toEqual(['DE']);
    expect(sameDevice?.history.lastPlace).toMatchObject({ country: 'DE', latitude: 52.52, longitude: 13.4 });
    expect(sameDevice?.history.lastPlace?.createdAt.getTime()).toBe(earlier.getTime());

    const newIp = await policies.evaluate(ws, user, { browserFamily: 'Firefox', osFamily: 'Linux', ip: '198.51.100.7' }, now);
    expect(newIp?.facts).toEqual({ anySession: true, pairSeen: true, tripleSeen: false });
    const newDevice = await policies.evaluate(ws, user, { browserFamily: 'Chrome', osFamily: 'Windows', ip: null }, now);
    expect(newDevice?.facts).toEqual({ anySession: true, pairSeen: false, tripleSeen: false });
  });

  it('reads no geo history when no geo kind has a policy', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const user = await anEndUserRow(db.dataSource, ws);
    await aSession(ws, user, new Date(Date.now() - 60_000), { ip: '203.0.113.1', country: 'DE', latitude: 52.52, longitude: 13.4 });
    await save(ws, { ...ALLOW_ALL, new_device: 'block' });
    const answer = await policies.evaluate(ws, user, { browserFamily: 'Firefox', osFamily: 'Linux', ip: '203.0.113.1' }, new Date());
    expect(answer?.history).toEqual({ knownCountries: [], lastPlace: null });
  });

  it("does not read another workspace's sessions for the same user id", async () => {
    const [ws, other] = [await aWorkspaceRow(db.dataSource), await aWorkspaceRow(db.dataSource)];
    const user = await anEndUserRow(db.dataSource, ws);
    await aSession(ws, user, new Date(Date.now() - 60_000), { ip: '203.0.113.1' });
    await save(other, { ...ALLOW_ALL, new_device: 'challenge' });
    const answer = await policies.evaluate(other, user, { browserFamily: 'Firefox', osFamily: 'Linux', ip: '203.0.113.1' }, new Date());
    expect(answer?.facts).toEqual({ anySession: false, pairSeen: false, tripleSeen: false });
  });

  itKeepsTheTenantContract('sign_in_policies', db, {
    // A workspace has at most one policy, keyed by the workspace: its id is the workspace's.
    create: async (workspaceId) => {
      await save(workspaceId, { ...ALLOW_ALL, new_device: 'challenge' });
      return workspaceId;
    },
    read: async (workspaceId, id) => {
      const policy = await policies.get(workspaceId);
      return policy?.workspaceId === id ? { ...policy, updatedAt: undefined } : undefined;
    },
    update: async (workspaceId, id) => {
      const before = await policies.get(id);
      await save(workspaceId, { ...ALLOW_ALL, new_device: 'block' });
      return (await policies.get(id))?.newDevice !== before?.newDevice;
    },
  });
});
