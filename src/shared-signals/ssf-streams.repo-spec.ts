import { randomUUID } from 'node:crypto';
import { aWorkspaceRow, itKeepsTheTenantContract, repositoriesForSuite } from '../../test/support/repository';
import { POLL, PUSH } from './entities/ssf-stream.entity';
import { SsfReceiversRepository } from './ssf-receivers.repository';
import { SsfStreamsRepository } from './ssf-streams.repository';

describe('SsfStreamsRepository', () => {
  let streams: SsfStreamsRepository;
  let receivers: SsfReceiversRepository;
  const db = repositoriesForSuite([SsfStreamsRepository, SsfReceiversRepository], (...booted) => ([streams, receivers] = booted));

  const aStream = (workspaceId: string, push = false) =>
    db.dataSource.transaction(async (tx) => {
      const receiver = await receivers.insert(tx, workspaceId, {
        name: 'repo-spec',
        clientId: `ssfr_${randomUUID()}`,
        secretHash: 'not-a-real-hash',
        defaultSubjects: 'NONE',
        createdBy: null,
      });
      const stream = await streams.insert(tx, workspaceId, receiver.id, {
        deliveryMethod: push ? PUSH : POLL,
        endpointUrl: push ? 'https://receiver.example/ssf' : null,
        authorizationEncrypted: null,
        eventsRequested: [],
        description: null,
      });
      return { receiver, stream };
    });
  const aSet = (workspaceId: string, streamId: string) =>
    db.dataSource.transaction((tx) =>
      streams.insertSets(tx, [{ workspaceId, streamId, jti: randomUUID(), eventType: 'https://example.com/event', token: 'a.b.c' }]),
    );

  itKeepsTheTenantContract('SSF streams', db, {
    create: async (workspaceId) => (await aStream(workspaceId)).stream.id,
    read: async (workspaceId, id) => (await streams.findStream(workspaceId, id)) ?? undefined,
    update: async (workspaceId, id) => {
      const description = `by ${workspaceId}`;
      await db.dataSource.transaction((tx) => streams.update(tx, workspaceId, id, { description }));
      return (await db.dataSource.query(`SELECT description FROM ssf_streams WHERE id = $1`, [id]))[0]?.description === description;
    },
    delete: (workspaceId, id) => db.dataSource.transaction((tx) => streams.delete(tx, workspaceId, id)),
  });

  it("acknowledges and reads only its own workspace's SETs", async () => {
    const [ws, other] = [await aWorkspaceRow(db.dataSource), await aWorkspaceRow(db.dataSource)];
    const { stream } = await aStream(ws);
    const [set] = await aSet(ws, stream.id);
    expect(await streams.pending(other, stream.id, 10)).toEqual([]);
    await db.dataSource.transaction((tx) => streams.acknowledge(tx, other, stream.id, [set.jti]));
    expect((await streams.pending(ws, stream.id, 10)).map((s) => s.jti)).toEqual([set.jti]);
    await db.dataSource.transaction((tx) => streams.acknowledge(tx, ws, stream.id, [set.jti]));
    expect(await streams.pending(ws, stream.id, 10)).toEqual([]);
    expect(await streams.deliverySummary(ws, stream.id)).toEqual({
      sets: { acknowledged: 1 },
      lastDeliveredAt: expect.any(Date),
      lastError: null,
    });
    expect(await streams.deliverySummary(other, stream.id)).toEqual({ sets: {}, lastDeliveredAt: null, lastError: null });
  });

  it("sums up a stream's delivery: counts by state, the last delivery, the error of the newest SET still waiting", async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const { stream } = await aStream(ws, true);
    // As push records them: under the stream's lease, one write per batch.
    const record = async (id: string, outcome: { status: 'pending' | 'delivered'; error: string | null }) => {
      await streams.claimPush(ws, stream.id, 'job', 60_000, 10);
      await streams.settlePush(ws, stream.id, 'job', [{ id, ...outcome }], true);
    };
    expect(await streams.deliverySummary(ws, stream.id)).toEqual({ sets: {}, lastDeliveredAt: null, lastError: null });
    const [older] = await aSet(ws, stream.id);
    const [newer] = await aSet(ws, stream.id);
    const [delivered] = await aSet(ws, stream.id);
    await record(older.id, { status: 'pending', error: 'HTTP 500: old' });
    await record(newer.id, { status: 'pending', error: 'HTTP 503: busy' });
    await record(delivered.id, { status: 'delivered', error: null });
    const summary = await streams.deliverySummary(ws, stream.id);
    expect(summary).toEqual({ sets: { pending: 2, delivered: 1 }, lastDeliveredAt: expect.any(Date), lastError: 'HTTP 503: busy' });
    await record(newer.id, { status: 'delivered', error: null });
    expect((await streams.deliverySummary(ws, stream.id)).lastError).toBe('HTTP 500: old');
  });

  it('prunes old SETs that are done with and keeps the pending ones', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const { stream } = await aStream(ws);
    const [done] = await aSet(ws, stream.id);
    const [pending] = await aSet(ws, stream.id);
    const [recent] = await aSet(ws, stream.id);
    await db.dataSource.transaction((tx) => streams.acknowledge(tx, ws, stream.id, [done.jti, recent.jti]));
    await db.dataSource.query(`UPDATE ssf_sets SET created_at = now() - interval '40 days' WHERE id = ANY($1)`, [[done.id, pending.id]]);
    await streams.pruneSets(new Date(Date.now() - 30 * 24 * 60 * 60_000));
    const left = await db.dataSource.query(`SELECT id FROM ssf_sets WHERE stream_id = $1 ORDER BY id`, [stream.id]);
    expect(left.map((r: { id: string }) => r.id).sort()).toEqual([pending.id, recent.id].sort());
  });

  it("keeps a stream's subjects to its workspace", async () => {
    const [ws, other] = [await aWorkspaceRow(db.dataSource), await aWorkspaceRow(db.dataSource)];
    const { stream } = await aStream(ws);
    await db.dataSource.transaction((tx) => streams.include(tx, ws, stream.id, 'opaque:1', { format: 'opaque', id: '1' }));
    const read = (workspaceId: string) => db.dataSource.transaction((tx) => streams.subjects(tx, workspaceId, stream.id, ['opaque:1']));
    expect(await read(other)).toEqual([]);
    expect((await read(ws)).map((s) => s.subject)).toEqual([{ format: 'opaque', id: '1' }]);
  });

  it('lets one job at a time push a stream, in order, and makes the holder read again for a SET made meanwhile', async () => {
    const [ws, other] = [await aWorkspaceRow(db.dataSource), await aWorkspaceRow(db.dataSource)];
    const { stream } = await aStream(ws, true);
    const [first] = await aSet(ws, stream.id);
    const [second] = await aSet(ws, stream.id);
    const delivered = (id: string) => ({ id, status: 'delivered' as const, error: null });
    const claim = (job: string, workspaceId = ws) => streams.claimPush(workspaceId, stream.id, job, 60_000, 10);
    const poke = () => db.dataSource.transaction((tx) => streams.pokePush(tx, ws, stream.id));

    expect(await claim('job-a', other)).toBeNull();
    const a = await claim('job-a');
    expect(a).toMatchObject({ mine: true, endpointUrl: 'https://receiver.example/ssf' });
    expect(a!.sets.map((s) => s.jti)).toEqual([first.jti, second.jti]);
    // Another job finds the lease held: it reads nothing, and the holder is told to read again.
    expect(await claim('job-b')).toMatchObject({ mine: false, sets: [] });
    expect(await streams.settlePush(ws, stream.id, 'job-a', [delivered(first.id), delivered(second.id)], true)).toBe(true);

    const [third] = await aSet(ws, stream.id);
    expect(await poke()).toBe(true);
    expect((await claim('job-a'))!.sets.map((s) => s.jti)).toEqual([third.jti]);
    expect(await streams.settlePush(ws, stream.id, 'job-a', [delivered(third.id)], true)).toBe(true);
    expect(await claim('job-a')).toMatchObject({ mine: true, sets: [] });
    // Nothing made meanwhile: the lease goes, and the next SET needs a job of its own.
    expect(await streams.settlePush(ws, stream.id, 'job-a', [], true)).toBe(false);
    expect(await poke()).toBe(false);
    expect(await streams.settlePush(ws, stream.id, 'job-a', [], true)).toBe(false);
    expect(await claim('job-b')).toMatchObject({ mine: true, sets: [] });
    expect((await streams.deliverySummary(ws, stream.id)).sets).toEqual({ delivered: 3 });
  });

  it('hands the push lease to the retry job, which alone may take it before it runs out', async () => {
    const ws = await aWorkspaceRow(db.dataSource);
    const { stream } = await aStream(ws, true);
    const [set] = await aSet(ws, stream.id);
    await streams.claimPush(ws, stream.id, 'job-a', 60_000, 10);
    const retry = { id: set.id, status: 'pending' as const, error: 'HTTP 503: busy' };
    await db.dataSource.transaction((tx) =>
      streams.handOverPush(tx, ws, stream.id, 'job-a', [retry], 'job-retry', new Date(Date.now() + 60_000)),
    );
    expect(await streams.claimPush(ws, stream.id, 'job-a', 60_000, 10)).toMatchObject({ mine: false });
    expect(await streams.claimPush(ws, stream.id, 'job-b', 60_000, 10)).toMatchObject({ mine: false });
    const taken = await streams.claimPush(ws, stream.id, 'job-retry', 60_000, 10);
    expect(taken!.sets).toEqual([{ id: set.id, jti: set.jti, token: set.token, attempts: 1 }]);
    const [row] = await db.dataSource.query(`SELECT status, last_error FROM ssf_sets WHERE id = $1`, [set.id]);
    expect(row).toEqual({ status: 'pending', last_error: 'HTTP 503: busy' });
  });
});
