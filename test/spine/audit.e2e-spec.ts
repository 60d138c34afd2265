import { auditPageQuery } from '../../src/audit/audit.repository';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { DomainEventBus } from '../../src/events/domain-event-bus';
import { AuditFacts } from '../../src/events/domain-events';
import { createTestApp, TestApp } from '../support/app';
import { aDeveloper, aWorkspace, TestDeveloper } from '../support/factories';

describe('audit log', () => {
  let t: TestApp;
  let dev: TestDeveloper;
  let uow: UnitOfWork;
  let bus: DomainEventBus;
  beforeAll(async () => {
    t = await createTestApp();
    dev = await aDeveloper(t);
    uow = t.get(UnitOfWork);
    bus = t.get(DomainEventBus);
  });
  /** What a refused sign-in does: an event that changes nothing, written on its own by the audit writer. */
  const recordDetached = (name: 'login_failure' | 'login_success' | 'custom_db_sync_fail', facts: AuditFacts) =>
    bus.runTransactionPhase([{ name, payload: facts } as never], null);
  afterAll(() => t.close());

  const list = (query: Record<string, string | number>) => t.http().get('/developer/audit/').query(query).set(dev.auth);

  it('records who, what, from where: actor, target, IP, user agent and request id', async () => {
    const res = await t
      .http()
      .post('/e/v1/developer/workspaces/')
      .set(dev.auth)
      .set('User-Agent', 'AuditTest/1.0')
      .set('X-Request-Id', 'req-audit-1')
      .send({ name: 'Audited' })
      .expect(201);
    const page = await list({ workspace_id: res.body.id }).expect(200);
    expect(page.body).toEqual({ results: [expect.any(Object)], next_cursor: null, limit: 50 });
    expect(page.body.results[0]).toMatchObject({
      workspace_id: res.body.id,
      event_type: 'workspace_create',
      severity: 'info',
      actor_type: 'developer',
      actor_id: dev.id,
      actor_email: dev.email,
      target_type: 'Workspace',
      target_id: res.body.id,
      ip_address: '127.0.0.1',
      user_agent: 'AuditTest/1.0',
      request_id: 'req-audit-1',
    });
    expect(page.body.results[0].created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  it('pages through 1,000 events written in the same millisecond exactly once each', async () => {
    const ws = await aWorkspace(t, dev);
    const sameInstant = new Date('2026-01-01T12:00:00.000Z');
    await uow.run(async (_tx, events) => {
      for (let i = 0; i < 1000; i++) {
        events.emit('scim_user_create', {
          workspaceId: ws.id,
          actor: { type: 'system', id: null },
          metadata: { i },
          createdAt: sameInstant,
        });
      }
    });
    const seen: number[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 200; pages++) {
      const res = await list({ workspace_id: ws.id, event_type: 'scim_user_create', limit: 7, ...(cursor ? { cursor } : {}) }).expect(200);
      seen.push(...res.body.results.map((e: { metadata: { i: number } }) => e.metadata.i));
      if (!res.body.next_cursor) break;
      cursor = res.body.next_cursor;
    }
    expect(seen).toHaveLength(1000);
    expect(new Set(seen).size).toBe(1000);
    expect(seen[0]).toBe(999);
  });

  it('keeps every row when concurrent transactions write audit events of one workspace at the same instant', async () => {
    const ws = await aWorkspace(t, dev);
    const sameInstant = new Date('2026-02-01T08:00:00.000Z');
    await Promise.all(
      Array.from({ length: 8 }, (_, writer) =>
        uow.run(async (_tx, events) => {
          for (let i = 0; i < 25; i++) {
            events.emit('scim_user_update', {
              workspaceId: ws.id,
              actor: { type: 'system', id: null },
              metadata: { writer, i },
              createdAt: sameInstant,
            });
          }
        }),
      ),
    );
    const [{ n, distinct }] = (await t.dataSource.query(
      `SELECT count(*)::int AS n, count(DISTINCT created_at)::int AS distinct FROM audit_events WHERE workspace_id = $1 AND event_type = 'scim_user_update'`,
      [ws.id],
    )) as { n: number; distinct: number }[];
    expect({ n, distinct }).toEqual({ n: 200, distinct: 200 });
  });

  it('reads a page through the (workspace_id, created_at) index, never by sorting the workspace', async () => {
    const ws = await aWorkspace(t, dev);
    await t.dataSource.query(
      `INSERT INTO audit_events (workspace_id, event_type, severity, actor_type, created_at)
       SELECT $1, 'scim_user_create', 'info', 'system', timestamptz '2025-01-01' + g * interval '1 second' FROM generate_series(1, 20000) g`,
      [ws.id],
    );
    // The table also holds every earlier test's rows of this worker's database; with the default sample the
    // planner once estimated 2 rows for this workspace's 10,800 before the cursor and chose to sort them.
    // A sample as large as the test table makes the estimates those of a table that knows its workspaces.
    await t.dataSource.query(
      'ALTER TABLE audit_events ALTER COLUMN workspace_id SET STATISTICS 10000, ALTER COLUMN created_at SET STATISTICS 10000',
    );
    await t.dataSource.query('ANALYZE audit_events (workspace_id, created_at)');
    await t.dataSource.query(
      'ALTER TABLE audit_events ALTER COLUMN workspace_id SET STATISTICS -1, ALTER COLUMN created_at SET STATISTICS -1',
    );
    for (const query of [{ workspace_id: ws.id }, { workspace_id: ws.id, cursor: '2025-01-01T03:00:00.000000Z', limit: 7 }]) {
      const { sql, params } = auditPageQuery(query, '2030-01-01 00:00:00');
      const [{ 'QUERY PLAN': plan }] = (await t.dataSource.query(`EXPLAIN (FORMAT JSON) ${sql}`, params)) as { 'QUERY PLAN': unknown }[];
      const text = JSON.stringify(plan);
      expect(text).toContain('audit_events_workspace_created_key');
      expect(text).not.toContain('"Node Type":"Sort"');
    }
    // The service runs it as a prepared statement: the plan PostgreSQL may cache for every workspace must use the index too.
    await t.dataSource.transaction(async (m) => {
      const { sql, params } = auditPageQuery({ workspace_id: ws.id, cursor: '2025-01-01T03:00:00.000000Z' }, '2030-01-01 00:00:00');
      await m.query(`SET LOCAL plan_cache_mode = force_generic_plan`);
      await m.query(`PREPARE audit_page_generic AS ${sql}`);
      const [{ 'QUERY PLAN': plan }] = (await m.query(
        `EXPLAIN (FORMAT JSON) EXECUTE audit_page_generic(${params.map((v) => `'${String(v)}'`).join(', ')})`,
      )) as { 'QUERY PLAN': unknown }[];
      await m.query(`DEALLOCATE audit_page_generic`);
      expect(JSON.stringify(plan)).toContain('audit_events_workspace_created_key');
      expect(JSON.stringify(plan)).not.toContain('"Node Type":"Sort"');
    });
  });

  it('applies every filter of the spec', async () => {
    const ws = await aWorkspace(t, dev);
    const base = { workspaceId: ws.id, request: { requestId: 'r', ip: '10.0.0.1', userAgent: 'ua' } };
    await recordDetached('login_failure', {
      ...base,
      actor: { type: 'anonymous', id: null },
      target: { type: 'EndUser', id: 't-1' },
    });
    await recordDetached('login_success', {
      ...base,
      actor: { type: 'end_user', id: 'u-1' },
      target: { type: 'Session', id: 't-2' },
      request: { requestId: 'r', ip: '10.0.0.2', userAgent: 'ua' },
    });
    await recordDetached('custom_db_sync_fail', { ...base, actor: { type: 'system', id: null } });
    const ids = async (q: Record<string, string>) =>
      (await list({ workspace_id: ws.id, ...q }).expect(200)).body.results.map((e: { event_type: string }) => e.event_type);
    expect(await ids({ event_type: 'login_failure' })).toEqual(['login_failure']);
    expect(await ids({ severity: 'error' })).toEqual(['custom_db_sync_fail']);
    expect(await ids({ actor_id: 'u-1' })).toEqual(['login_success']);
    expect(await ids({ actor_type: 'anonymous' })).toEqual(['login_failure']);
    expect(await ids({ target_id: 't-2' })).toEqual(['login_success']);
    expect(await ids({ ip_address: '10.0.0.2' })).toEqual(['login_success']);
    const all = (await list({ workspace_id: ws.id }).expect(200)).body.results as { created_at: string; event_type: string }[];
    expect(all.map((e) => e.event_type)).toEqual(['custom_db_sync_fail', 'login_success', 'login_failure', 'workspace_create']);
    expect(await ids({ from: all[1].created_at, to: all[1].created_at })).toEqual(['login_success']);
    expect(await ids({ from: all[1].created_at })).toEqual(['custom_db_sync_fail', 'login_success']);
    expect(await ids({ to: all[2].created_at })).toEqual(['login_failure', 'workspace_create']);
  });

  it('enforces limit bounds and validates filters with 400', async () => {
    const ws = await aWorkspace(t, dev);
    for (const limit of ['0', '101', 'abc', '-1']) {
      const res = await list({ workspace_id: ws.id, limit }).expect(400);
      expect(res.body.details).toHaveProperty('limit');
    }
    await list({ workspace_id: ws.id, limit: 100 }).expect(200);
    await list({ workspace_id: ws.id, severity: 'fatal' }).expect(400);
    await list({ workspace_id: ws.id, cursor: 'yesterday' }).expect(400);
    await t.http().get('/developer/audit/').set(dev.auth).expect(400);
  });

  it('is append-only in the database itself: UPDATE, DELETE and TRUNCATE fail', async () => {
    const ws = await aWorkspace(t, dev);
    await expect(t.dataSource.query(`UPDATE audit_events SET message = 'x' WHERE workspace_id = $1`, [ws.id])).rejects.toThrow(
      /append-only/,
    );
    await expect(t.dataSource.query(`DELETE FROM audit_events WHERE workspace_id = $1`, [ws.id])).rejects.toThrow(/append-only/);
    await expect(t.dataSource.query(`TRUNCATE audit_events`)).rejects.toThrow(/append-only/);
    expect((await list({ workspace_id: ws.id }).expect(200)).body.results).toHaveLength(1);
  });

  it('never fails the request when the audit insert fails, and the change still commits', async () => {
    await t.dataSource.query(
      `ALTER TABLE audit_events ADD CONSTRAINT test_reject_workspace_create CHECK (event_type <> 'workspace_create') NOT VALID`,
    );
    try {
      const res = await t.http().post('/e/v1/developer/workspaces/').set(dev.auth).send({ name: 'audit down' }).expect(201);
      await t.http().get(`/e/v1/developer/workspaces/${res.body.id}/`).set(dev.auth).expect(200);
      const metrics = await t.http().get('/metrics').expect(200);
      expect(metrics.text).toMatch(/audit_write_failures_total\{mode="transactional"\} [1-9]/);
    } finally {
      await t.dataSource.query(`ALTER TABLE audit_events DROP CONSTRAINT test_reject_workspace_create`);
    }
  });

  it('sanitizes content so it cannot break the insert (NUL bytes, long messages and user agents)', async () => {
    const ws = await aWorkspace(t, dev);
    await recordDetached('login_failure', {
      workspaceId: ws.id,
      actor: { type: 'anonymous', id: 'a\u0000b' },
      message: 'm'.repeat(1000),
      request: { requestId: 'r', ip: '1.1.1.1', userAgent: 'u'.repeat(5000) },
      metadata: { text: 'x\u0000y' },
    });
    const [event] = (await list({ workspace_id: ws.id, event_type: 'login_failure' }).expect(200)).body.results;
    expect(event.actor_id).toBe('ab');
    expect(event.message).toHaveLength(255);
    expect(event.user_agent).toHaveLength(1000);
    expect(event.metadata).toEqual({ text: 'xy' });
  });

  it('exports a time range as NDJSON, oldest first', async () => {
    const ws = await aWorkspace(t, dev);
    await t.http().patch(`/e/v1/developer/workspaces/${ws.id}/`).set(dev.auth).send({ name: 'renamed' }).expect(200);
    const res = await t
      .http()
      .get('/developer/audit/export/')
      .query({ workspace_id: ws.id })
      .set(dev.auth)
      .buffer(true)
      .parse((r, cb) => {
        let data = '';
        r.on('data', (c: Buffer) => (data += c.toString()));
        r.on('end', () => cb(null, data));
      })
      .expect(200);
    expect(res.headers['content-type']).toMatch(/application\/x-ndjson/);
    const lines = (res.body as string)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event_type: string });
    expect(lines.map((l) => l.event_type)).toEqual(['workspace_create', 'workspace_update']);
  });
});
