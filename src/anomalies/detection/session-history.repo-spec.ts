import { anEndUserRow, aWorkspaceRow, itKeepsTheTenantContract, repositoriesForSuite } from '../../../test/support/repository';
import { anOAuthClientRow } from '../../../test/support/repository-fixtures';
import { SessionHistoryRepository } from './session-history.repository';

describe('SessionHistoryRepository', () => {
  let history: SessionHistoryRepository;
  const db = repositoriesForSuite([SessionHistoryRepository], (booted) => (history = booted));

  const aUser = (workspaceId: string) => anEndUserRow(db.dataSource, workspaceId);
  const aSession = async (workspaceId: string, userId: string, createdAt: Date, ip: string) =>
    (
      await db.dataSource.query<{ id: string }[]>(
        `INSERT INTO end_user_sessions (workspace_id, user_id, kind, ip_address, created_at, last_seen_at, expires_at)
         VALUES ($1, $2, 'api', $3, $4, $4, $4::timestamptz + interval '1 day') RETURNING id`,
        [workspaceId, userId, ip, createdAt],
      )
    )[0].id;

  it('reads a user’s earlier sessions in its workspace only, with the geolocation stored on them', async () => {
    const [ws, other] = [await aWorkspaceRow(db.dataSource), await aWorkspaceRow(db.dataSource)];
    const user = await aUser(ws);
    const t0 = new Date(Date.now() - 3600_000);
    const earlier = await aSession(ws, user, t0, '203.0.113.1');
    await history.storeGeo(ws, earlier, { country: 'JP', city: 'Tokyo', latitude: 35.68, longitude: 139.69 });
    await history.storeGeo(other, earlier, { country: 'FR', city: 'Paris', latitude: 48.85, longitude: 2.35 });
    const current = { id: await aSession(ws, user, new Date(), '203.0.113.2'), createdAt: new Date() };
    expect(await history.priorSessions(ws, user, current)).toEqual([
      {
        id: earlier,
        createdAt: t0,
        ipAddress: '203.0.113.1',
        browserFamily: 'Other',
        osFamily: 'Other',
        country: 'JP',
        city: 'Tokyo',
        latitude: 35.68,
        longitude: 139.69,
      },
    ]);
    expect(await history.priorSessions(other, user, current)).toEqual([]);
  });

  it('names an OAuth client only within its workspace', async () => {
    const [ws, other] = [await aWorkspaceRow(db.dataSource), await aWorkspaceRow(db.dataSource)];
    const client = await anOAuthClientRow(db.dataSource, ws, { name: 'Mobile app' });
    expect(await history.oauthClientName(ws, client.id)).toBe('Mobile app');
    expect(await history.oauthClientName(other, client.id)).toBeNull();
    expect(await history.oauthClientName(ws, null)).toBeNull();
  });

  /**
   * The session's history as the anomaly detectors read it: the record is a past session of a user,
   * seen from a later one; an update is its geolocation (storeGeo answers nothing, so the change is
   * read back).
   */
  const sessions = new Map<string, { user: string; later: { id: string; createdAt: Date } }>();
  const historyOf = async (workspaceId: string, id: string) =>
    (await history.priorSessions(workspaceId, sessions.get(id)!.user, sessions.get(id)!.later)).find((s) => s.id === id);
  itKeepsTheTenantContract('end_user_sessions (history)', db, {
    create: async (workspaceId) => {
      const user = await aUser(workspaceId);
      const id = await aSession(workspaceId, user, new Date(Date.now() - 60_000), '198.51.100.7');
      const now = new Date();
      sessions.set(id, { user, later: { id: await aSession(workspaceId, user, now, '198.51.100.8'), createdAt: now } });
      return id;
    },
    read: historyOf,
    update: async (workspaceId, id) => {
      const owner = (
        await db.dataSource.query<{ workspace_id: string }[]>('SELECT workspace_id FROM end_user_sessions WHERE id = $1', [id])
      )[0];
      await history.storeGeo(workspaceId, id, { country: 'NZ', city: 'Wellington', latitude: -41.29, longitude: 174.78 });
      return (await historyOf(owner.workspace_id, id))?.country === 'NZ';
    },
  });
});
