import { spawnSync } from 'node:child_process';
import { generateKeyPairSync, sign } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkpointMessage, CheckpointView } from '../../src/audit/chain/chain';
import { createTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { aDeveloper, aWorkspace, TestDeveloper, TestWorkspace } from '../support/factories';

const ROOT = join(__dirname, '..', '..');

/**
 * Tamper evidence (docs/audit.md): the sealer binds every audit event into its workspace's hash
 * chain and signs checkpoints; verification names the first event an insider with database
 * superuser rights edited, removed, back-dated into the log, or whose checkpoint they re-signed.
 */
describe('audit tamper evidence', () => {
  let t: TestApp;
  let dev: TestDeveloper;
  beforeAll(async () => {
    // Every pass sweeps the whole log: the forged row below is back-dated, before the sealer's horizon.
    // The late-seal tolerance stays at its default (5 min): the forged row is an hour older, while on a loaded
    // machine a genuine event may be sealed more than a second after the next one was written.
    t = await createTestApp({
      AUDIT_SEAL_INTERVAL_MS: '50',
      AUDIT_SEAL_SWEEP_INTERVAL_MS: '0',
      AUDIT_CHECKPOINT_INTERVAL_MS: '0',
    });
    dev = await aDeveloper(t);
  });
  afterAll(() => t.close());

  const verify = (ws: TestWorkspace, who = dev) => t.http().get('/developer/audit/verify/').query({ workspace_id: ws.id }).set(who.auth);

  /** A workspace with `renames` + 1 audit events, all sealed and covered by a checkpoint; its events oldest first. */
  async function sealedWorkspace(renames = 4): Promise<{ ws: TestWorkspace; events: { id: string; created_at: string }[] }> {
    const ws = await aWorkspace(t, dev);
    for (let i = 0; i < renames; i++) {
      await t
        .http()
        .patch(`/e/v1/developer/workspaces/${ws.id}/`)
        .set(dev.auth)
        .send({ name: `renamed-${i}` })
        .expect(200);
    }
    await eventually(async () => {
      const res = await verify(ws).expect(200);
      expect(res.body).toEqual({ verified: renames + 1, checkpoints: expect.any(Number), first_break: null });
      const checkpoints = await t.http().get('/developer/audit/checkpoints/').query({ workspace_id: ws.id }).set(dev.auth).expect(200);
      expect(checkpoints.body.results.at(-1).seq).toBe(renames + 1);
    });
    const page = await t.http().get('/developer/audit/').query({ workspace_id: ws.id }).set(dev.auth).expect(200);
    return { ws, events: (page.body.results as { id: string; created_at: string }[]).reverse() };
  }

  /** SQL as a database superuser would run it, the append-only triggers switched off around it. */
  async function asInsider(table: string, sql: string, params: unknown[] = []): Promise<void> {
    await t.dataSource.transaction(async (m) => {
      await m.query(`ALTER TABLE ${table} DISABLE TRIGGER USER`);
      await m.query(sql, params);
      await m.query(`ALTER TABLE ${table} ENABLE TRIGGER USER`);
    });
  }

  it('verifies an untouched log: every event checked, every checkpoint signed by a published key', async () => {
    const { ws } = await sealedWorkspace(3);
    const res = await verify(ws).expect(200);
    expect(res.body.verified).toBe(4);
    expect(res.body.checkpoints).toBeGreaterThanOrEqual(1);
    const keys = await t.http().get('/developer/audit/keys/').set(dev.auth).expect(200);
    expect(keys.body.keys).toEqual([
      { key_id: expect.any(String), algorithm: 'Ed25519', public_key: expect.stringContaining('BEGIN PUBLIC KEY'), status: 'active' },
    ]);
    const checkpoints = await t.http().get('/developer/audit/checkpoints/').query({ workspace_id: ws.id }).set(dev.auth).expect(200);
    for (const c of checkpoints.body.results as CheckpointView[]) {
      expect(c).toMatchObject({ workspace_id: ws.id, key_id: keys.body.keys[0].key_id, hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    }
  });

  it('reports an edited message (trigger disabled, row updated) at that event', async () => {
    const { ws, events } = await sealedWorkspace();
    await asInsider('audit_events', `UPDATE audit_events SET message = 'nothing happened' WHERE id = $1`, [events[2].id]);
    const res = await verify(ws).expect(200);
    expect(res.body.first_break).toEqual({ event_id: events[2].id, seq: 3, reason: 'edited_event' });
    expect(res.body.verified).toBe(2);
  });

  it('reports a deleted row at the missing event', async () => {
    const { ws, events } = await sealedWorkspace();
    await asInsider('audit_events', `DELETE FROM audit_events WHERE id = $1`, [events[1].id]);
    const res = await verify(ws).expect(200);
    expect(res.body.first_break).toEqual({ event_id: events[1].id, seq: 2, reason: 'missing_event' });
  });

  it('reports a forged row inserted back-dated among the old events at the forged event', async () => {
    const { ws, events } = await sealedWorkspace();
    const backdated = new Date(Date.parse(events[0].created_at) - 60 * 60_000).toISOString();
    const [{ id: forged }] = (await t.dataSource.transaction(async (m) => {
      await m.query(`ALTER TABLE audit_events DISABLE TRIGGER USER`);
      const rows: { id: string }[] = await m.query(
        `INSERT INTO audit_events (workspace_id, event_type, severity, actor_type, actor_id, message, created_at)
         VALUES ($1, 'workspace_member_add', 'warn', 'developer', $2, 'Developer added as member', $3) RETURNING id`,
        [ws.id, dev.id, backdated],
      );
      await m.query(`ALTER TABLE audit_events ENABLE TRIGGER USER`);
      return rows;
    })) as { id: string }[];
    await eventually(async () => {
      const res = await verify(ws).expect(200);
      expect(res.body.first_break).toEqual({ event_id: forged, seq: 6, reason: 'inserted_event' });
    });
  });

  it('reports a checkpoint re-signed with a key that is not the service key', async () => {
    const { ws } = await sealedWorkspace();
    const [checkpoint] = (await t.http().get('/developer/audit/checkpoints/').query({ workspace_id: ws.id }).set(dev.auth).expect(200)).body
      .results as CheckpointView[];
    const wrongKey = generateKeyPairSync('ed25519').privateKey;
    const forgedSignature = sign(null, checkpointMessage(checkpoint), wrongKey).toString('base64');
    await asInsider('audit_checkpoints', `UPDATE audit_checkpoints SET signature = $2 WHERE id = $1`, [checkpoint.id, forgedSignature]);
    const res = await verify(ws).expect(200);
    expect(res.body.first_break).toEqual({ event_id: checkpoint.event_id, seq: checkpoint.seq, reason: 'bad_checkpoint_signature' });
  });

  it('proves an export offline with npm run audit:verify, and names an event edited in the file', async () => {
    const { ws, events } = await sealedWorkspace();
    const dir = mkdtempSync(join(tmpdir(), 'audit-verify-'));
    const exported = await t
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
    const checkpoints = await t.http().get('/developer/audit/checkpoints/').query({ workspace_id: ws.id }).set(dev.auth).expect(200);
    const keys = await t.http().get('/developer/audit/keys/').set(dev.auth).expect(200);
    writeFileSync(join(dir, 'export.ndjson'), exported.body as string);
    writeFileSync(join(dir, 'checkpoints.json'), JSON.stringify(checkpoints.body));
    writeFileSync(join(dir, 'keys.json'), JSON.stringify(keys.body));

    const run = (exportFile: string) =>
      spawnSync(
        process.execPath,
        [
          '-r',
          'ts-node/register/transpile-only',
          'scripts/audit-verify.ts',
          exportFile,
          join(dir, 'checkpoints.json'),
          join(dir, 'keys.json'),
        ],
        {
          cwd: ROOT,
          encoding: 'utf8',
        },
      );
    const intact = run(join(dir, 'export.ndjson'));
    expect(intact.stderr).toBe('');
    expect(intact.status).toBe(0);
    expect(JSON.parse(intact.stdout)).toEqual({ verified: 5, checkpoints: expect.any(Number), unsealed: 0, first_break: null });
    expect(JSON.parse(intact.stdout).checkpoints).toBeGreaterThanOrEqual(1);

    const tampered = (exported.body as string)
      .split('\n')
      .map((line) => (line.includes(`"id":"${events[3].id}"`) ? line.replace(/"message":"[^"]*"/, '"message":"rewritten"') : line))
      .join('\n');
    expect(tampered).not.toBe(exported.body);
    writeFileSync(join(dir, 'tampered.ndjson'), tampered);
    const broken = run(join(dir, 'tampered.ndjson'));
    expect(broken.status).toBe(1);
    expect(JSON.parse(broken.stdout).first_break).toEqual({ event_id: events[3].id, seq: 4, reason: 'edited_event' });
  });

  it('answers 404 for a workspace of another developer on verify and checkpoints', async () => {
    const { ws } = await sealedWorkspace(1);
    const other = await aDeveloper(t);
    await verify(ws, other).expect(404);
    await t.http().get('/developer/audit/checkpoints/').query({ workspace_id: ws.id }).set(other.auth).expect(404);
  });

  it('refuses a bad range with the documented validation error', async () => {
    const ws = await aWorkspace(t, dev);
    const res = await t.http().get('/developer/audit/verify/').query({ workspace_id: ws.id, from: 'yesterday' }).set(dev.auth).expect(400);
    expect(res.body).toMatchObject({ error: 'validation_failed', details: { from: expect.anything() } });
  });
});
