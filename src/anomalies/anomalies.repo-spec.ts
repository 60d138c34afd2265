import { randomUUID } from 'node:crypto';
import { anEndUserRow, aWorkspaceRow, itKeepsTheTenantContract, repositoriesForSuite } from '../../test/support/repository';
import { AnomaliesRepository, NewAnomaly } from './anomalies.repository';

describe('AnomaliesRepository', () => {
  let anomalies: AnomaliesRepository;
  const db = repositoriesForSuite([AnomaliesRepository], (booted) => (anomalies = booted));

  const aUser = (workspaceId: string) => anEndUserRow(db.dataSource, workspaceId);
  const finding = (workspaceId: string, userId: string, sessionId = randomUUID()): NewAnomaly => ({
    workspaceId,
    userId,
    oauthClientId: null,
    sessionId,
    kind: 'new_country',
    severity: 'warn',
    message: 'Sign-in from a new country',
    metadata: { country: 'JP' },
    ipAddress: '203.0.113.5',
    country: 'JP',
    city: 'Tokyo',
    userAgent: 'repo-spec',
  });
  /** Users by workspace, so the contract's reads ask as the anomaly's own user. */
  const users = new Map<string, string>();
  const userOf = async (workspaceId: string) =>
    users.get(workspaceId) ?? users.set(workspaceId, await aUser(workspaceId)).get(workspaceId)!;

  itKeepsTheTenantContract('security anomalies', db, {
    create: async (workspaceId) => {
      const [row] = await db.dataSource.transaction(async (tx) =>
        anomalies.insertMany(tx, [finding(workspaceId, await userOf(workspaceId))]),
      );
      return row.id;
    },
    read: async (workspaceId, id) => (await anomalies.listForUser(workspaceId, await userOf(workspaceId), 50)).find((a) => a.id === id),
    update: async (workspaceId, id) => (await anomalies.acknowledge(workspaceId, await userOf(workspaceId), id)) !== null,
  });

  it('records a finding once per session and kind, typed from the entity', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const user = await aUser(ws);
    const f = finding(ws, user);
    const [row] = await db.dataSource.transaction((tx) => anomalies.insertMany(tx, [f]));
    expect(row).toMatchObject({
      workspaceId: ws,
      userId: user,
      kind: 'new_country',
      severity: 'warn',
      metadata: { country: 'JP' },
      notifiedAt: null,
    });
    expect(row.createdAt).toEqual(expect.any(Date));
    expect(await db.dataSource.transaction((tx) => anomalies.insertMany(tx, [f]))).toEqual([]);
  });

  it('acknowledges once, keeping the first time', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const user = await aUser(ws);
    const [row] = await db.dataSource.transaction((tx) => anomalies.insertMany(tx, [finding(ws, user)]));
    const first = await anomalies.acknowledge(ws, user, row.id);
    expect(first?.acknowledgedAt).toEqual(expect.any(Date));
    expect((await anomalies.acknowledge(ws, user, row.id))?.acknowledgedAt).toEqual(first?.acknowledgedAt);
  });
});
