import { aSecretHash, aWorkspaceRow, itKeepsTheTenantContract, repositoriesForSuite } from '../../test/support/repository';
import { anAuditEvent } from '../../test/support/repository-fixtures';
import { AuditChainRepository, NewLink } from './audit-chain.repository';
import { AuditRepository } from './audit.repository';

describe('AuditChainRepository', () => {
  let chain: AuditChainRepository;
  let audit: AuditRepository;
  const db = repositoriesForSuite([AuditChainRepository, AuditRepository], (...booted) => ([chain, audit] = booted));

  const aHash = () => aSecretHash();

  /** A workspace with `count` audit events, oldest first (their ids as the log holds them). */
  const aLog = async (count: number) => {
    const workspaceId = await aWorkspaceRow(db.dataSource);
    for (let i = 0; i < count; i++) {
      await audit.append(null, anAuditEvent(workspaceId, { message: `event ${i}`, metadata: '{}' }));
    }
    const rows = await db.dataSource.query<{ id: string }[]>('SELECT id FROM audit_events WHERE workspace_id = $1 ORDER BY created_at', [
      workspaceId,
    ]);
    return { workspaceId, eventIds: rows.map((r) => r.id) };
  };

  /** Seals the events as a chain from seq 1, each link naming the previous one's hash. */
  const seal = async (workspaceId: string, eventIds: string[]): Promise<NewLink[]> => {
    const sealedAt = (await db.transaction((t) => chain.lockSealer(t)))!;
    let prevHash = '0'.repeat(64);
    const links = eventIds.map((eventId, i) => {
      const link = { eventId, workspaceId, seq: i + 1, prevHash, hash: aHash(), sealedAt };
      prevHash = link.hash;
      return link;
    });
    await db.transaction((t) => chain.insertLinks(t, links));
    return links;
  };

  it('answers the database clock to one sealer at a time', async () => {
    let releaseFirst!: () => void;
    const held = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstHas!: (now: string | null) => void;
    const firstAnswer = new Promise<string | null>((resolve) => (firstHas = resolve));
    const first = db.transaction(async (t) => {
      firstHas(await chain.lockSealer(t));
      await held;
    });
    expect(await firstAnswer).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(await db.transaction((t) => chain.lockSealer(t))).toBeNull();
    releaseFirst();
    await first;
    expect(await db.transaction((t) => chain.lockSealer(t))).not.toBeNull();
  });

  it('follows a sealed chain: head, links in order with their events, and the seq range', async () => {
    const { workspaceId, eventIds } = await aLog(3);
    expect(await chain.headSeq(null, workspaceId)).toBe(0);
    const links = await seal(workspaceId, eventIds);
    expect(await chain.headSeq(null, workspaceId)).toBe(3);
    expect(await db.transaction((t) => chain.heads(t, [workspaceId]))).toEqual([
      { workspaceId, seq: 3, eventId: eventIds[2], hash: links[2].hash },
    ]);
    const read = await chain.links(null, workspaceId, 1, 3, 10);
    expect(read.map((l) => [l.seq, l.event_id, l.prev_hash, l.hash])).toEqual(
      links.slice(1).map((l) => [l.seq, l.eventId, l.prevHash, l.hash]),
    );
    expect(read[0].sealed_at).toBe(links[1].sealedAt);
    expect(read[0].event).toMatchObject({ id: eventIds[1], message: 'event 1' });
    expect(await chain.seqRange(workspaceId)).toEqual({ first: 1, last: 3 });
    expect(await chain.links(null, workspaceId, 0, 3, 2)).toHaveLength(2);
  });

  it('keeps checkpoints per workspace: the newest, those signed in a range, and those covering a seq range', async () => {
    const { workspaceId, eventIds } = await aLog(2);
    const links = await seal(workspaceId, eventIds);
    const signedAt = links[1].sealedAt;
    const checkpoint = {
      workspace_id: workspaceId,
      seq: 2,
      event_id: eventIds[1],
      hash: links[1].hash,
      key_id: 'k1',
      signature: 'sig',
      signed_at: signedAt,
    };
    await db.transaction((t) => chain.insertCheckpoint(t, checkpoint));
    expect(await db.transaction((t) => chain.lastCheckpoints(t, [workspaceId]))).toEqual(new Map([[workspaceId, { seq: 2, signedAt }]]));
    const signed = await chain.checkpointsSigned(workspaceId, { afterSeq: 0, limit: 10 });
    expect(signed).toEqual([{ id: expect.any(String), ...checkpoint }]);
    expect(await chain.checkpointsCovering(workspaceId, 1, 2)).toHaveLength(1);
    expect(await chain.checkpointsCovering(workspaceId, 3, 9)).toEqual([]);
  });

  it("never shows one workspace's chain or checkpoints to another", async () => {
    const mine = await aLog(2);
    const links = await seal(mine.workspaceId, mine.eventIds);
    await db.transaction((t) =>
      chain.insertCheckpoint(t, {
        workspace_id: mine.workspaceId,
        seq: 2,
        event_id: mine.eventIds[1],
        hash: links[1].hash,
        key_id: 'k1',
        signature: 'sig',
        signed_at: links[1].sealedAt,
      }),
    );
    const other = await aWorkspaceRow(db.dataSource);
    expect(await chain.headSeq(null, other)).toBe(0);
    expect(await db.transaction((t) => chain.heads(t, [other]))).toEqual([]);
    expect(await chain.links(null, other, 0, 2, 10)).toEqual([]);
    expect(await chain.seqRange(other)).toBeNull();
    expect(await chain.checkpointsSigned(other, { afterSeq: 0, limit: 10 })).toEqual([]);
    expect(await chain.checkpointsCovering(other, 1, 2)).toEqual([]);
    expect(await db.transaction((t) => chain.lastCheckpoints(t, [other]))).toEqual(new Map());
  });

  // The chain is append-only: a workspace's links are read (export, verification), never updated.
  itKeepsTheTenantContract('audit_chain', db, {
    create: async (workspaceId) => {
      await audit.append(null, anAuditEvent(workspaceId));
      const [event] = await db.dataSource.query<{ id: string }[]>('SELECT id FROM audit_events WHERE workspace_id = $1', [workspaceId]);
      await seal(workspaceId, [event.id]);
      return event.id;
    },
    read: async (workspaceId, eventId) => (await chain.links(null, workspaceId, 0, 10, 10)).find((link) => link.event_id === eventId),
  });
});
