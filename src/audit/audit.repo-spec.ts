import { aMemberRow, aWorkspaceRow, itKeepsTheTenantContract, repositoriesForSuite } from '../../test/support/repository';
import { anAuditEvent as anEvent } from '../../test/support/repository-fixtures';
import { AuditRepository } from './audit.repository';

describe('AuditRepository', () => {
  let audit: AuditRepository;
  const db = repositoriesForSuite([AuditRepository], (booted) => (audit = booted));

  /** A workspace with a member developer. */
  const aTenant = async () => {
    const workspaceId = await aWorkspaceRow(db.dataSource);
    return { workspaceId, developerId: await aMemberRow(db.dataSource, workspaceId, 'owner') };
  };

  it('appends an event and pages it back to a member, with microsecond timestamps', async () => {
    const t = await aTenant();
    const event = anEvent(t.workspaceId);
    expect(await audit.append(null, event)).toBeNull();
    const [view, ...rest] = await audit.page({ workspace_id: t.workspaceId });
    expect(rest).toEqual([]);
    expect(view).toMatchObject({
      workspace_id: t.workspaceId,
      event_type: 'scim_user_create',
      actor_id: event.actorId,
      target_id: event.targetId,
      ip_address: '203.0.113.7',
      metadata: { changed: ['email'] },
    });
    expect(view.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  it('a page holds only its own workspace’s events (membership is the route guard’s, decision 0151)', async () => {
    const [owner, other] = [await aTenant(), await aTenant()];
    await audit.append(null, anEvent(owner.workspaceId));
    expect(await audit.page({ workspace_id: other.workspaceId })).toEqual([]);
    expect((await audit.page({ workspace_id: owner.workspaceId })).map((e) => e.workspace_id)).toEqual([owner.workspaceId]);
  });

  it('filters a page and walks newest first by cursor', async () => {
    const t = await aTenant();
    for (const eventType of ['a_first', 'b_second', 'c_third']) await audit.append(null, anEvent(t.workspaceId, { eventType }));
    const page = await audit.page({ workspace_id: t.workspaceId, limit: 1 });
    expect(page.map((e) => e.event_type)).toEqual(['c_third', 'b_second']);
    const next = await audit.page({ workspace_id: t.workspaceId, limit: 1, cursor: page[0].created_at });
    expect(next[0].event_type).toBe('b_second');
    expect((await audit.page({ workspace_id: t.workspaceId, event_type: 'a_first' })).map((e) => e.event_type)).toEqual(['a_first']);
  });

  it('exports only the workspace’s own events, oldest first, unsealed ones without a chain link', async () => {
    const [t, other] = [await aTenant(), await aTenant()];
    await audit.append(null, anEvent(t.workspaceId, { eventType: 'one' }));
    await audit.append(null, anEvent(other.workspaceId, { eventType: 'theirs' }));
    await audit.append(null, anEvent(t.workspaceId, { eventType: 'two' }));
    const lines = [];
    for await (const line of audit.exportRange({ workspace_id: t.workspaceId })) lines.push(line);
    expect(lines.map((l) => [l.event_type, l.chain])).toEqual([
      ['one', null],
      ['two', null],
    ]);
  });

  it('answers the append’s error instead of failing the caller (audit_append never raises)', async () => {
    const t = await aTenant();
    const error = await audit.append(null, anEvent(t.workspaceId, { severity: 'bogus' }));
    expect(error).toMatch(/audit_events_severity_check/);
    expect(await audit.page({ workspace_id: t.workspaceId })).toEqual([]);
  });

  // The log is append-only: there is no update or delete to refuse, only reads to scope. The record's
  // id here is its target's (append answers no id).
  itKeepsTheTenantContract('audit_events', db, {
    create: async (workspaceId) => {
      const event = anEvent(workspaceId);
      expect(await audit.append(null, event)).toBeNull();
      return event.targetId!;
    },
    read: async (workspaceId, targetId) => (await audit.page({ workspace_id: workspaceId })).find((e) => e.target_id === targetId),
  });
});
