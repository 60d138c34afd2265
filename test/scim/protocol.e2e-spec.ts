import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { DomainEvent } from '../../src/events/domain-events';
import { TRANSACTION_PHASE_WRITERS, type TransactionPhaseWriter } from '../../src/events/transaction-phase';
import { createTestApp, TestApp } from '../support/app';
import {
  aScimGroup,
  aScimTenant,
  aScimUser,
  aUserName,
  ERROR_SCHEMA,
  GROUP_SCHEMA,
  LIST_RESPONSE,
  PATCH_OP,
  USER_SCHEMA,
  userBody,
} from './scim-support';

describe('SCIM protocol details', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  describe('discovery', () => {
    it('describes capabilities: patch and filter (max 200); no bulk, sort, etag or changePassword', async () => {
      const s = await aScimTenant(t);
      const res = await s.get('/ServiceProviderConfig').expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
      expect(res.body).toMatchObject({
        patch: { supported: true },
        filter: { supported: true, maxResults: 200 },
        bulk: { supported: false },
        sort: { supported: false },
        etag: { supported: false },
        changePassword: { supported: false },
      });
    });

    it('lists the User and Group resource types and schemas, with userName case-insensitive and server-unique', async () => {
      const s = await aScimTenant(t);
      const types = await s.get('/ResourceTypes').expect(200);
      expect(types.body.Resources.map((r: { name: string; endpoint: string }) => [r.name, r.endpoint])).toEqual([
        ['User', '/Users'],
        ['Group', '/Groups'],
      ]);
      const schemas = await s.get('/Schemas').expect(200);
      expect(schemas.body.Resources.map((r: { id: string }) => r.id)).toEqual([USER_SCHEMA, GROUP_SCHEMA]);
      const user = await s.get(`/Schemas/${USER_SCHEMA}`).expect(200);
      expect(user.body.attributes.find((a: { name: string }) => a.name === 'userName')).toMatchObject({
        caseExact: false,
        uniqueness: 'server',
        required: true,
      });
    });

    it.each(['post', 'put', 'patch', 'delete'] as const)(
      'answers %s on discovery endpoints with 405 in the SCIM error format',
      async (method) => {
        const s = await aScimTenant(t);
        for (const path of ['/ServiceProviderConfig', '/ResourceTypes', '/Schemas']) {
          const res = method === 'delete' ? await s.delete(path) : await s[method](path, {});
          expect(res.status).toBe(405);
          expect(res.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: '405' });
        }
      },
    );
  });

  describe('errors', () => {
    it('answers unknown URLs, unknown ids and non-UUID ids with a SCIM 404', async () => {
      const s = await aScimTenant(t);
      for (const path of [
        '/Nope',
        `/Users/${randomUUID()}`,
        '/Users/123',
        "/Users/1' or '1'='1",
        `/Groups/${randomUUID()}`,
        '/Groups/abc',
      ]) {
        const res = await s.get(path).expect(404);
        expect(res.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: '404' });
        expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
      }
      await s.patch('/Users/abc', { Operations: [] }).expect(404);
      await s.put('/Groups/abc', { displayName: 'x' }).expect(404);
      await s.delete('/Users/abc').expect(404);
    });

    it('answers malformed JSON with 400 invalidSyntax and a bad filter with 400 invalidFilter saying why', async () => {
      const s = await aScimTenant(t);
      const bad = await t
        .http()
        .post('/scim/v2/Users')
        .set('Authorization', `Bearer ${s.token}`)
        .set('Content-Type', 'application/scim+json')
        .send('{"userName": ');
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ status: '400', scimType: 'invalidSyntax' });

      const unknown = await s.get(`/Users?filter=${encodeURIComponent('title eq "CEO"')}`).expect(400);
      expect(unknown.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: '400', scimType: 'invalidFilter' });
      expect(unknown.body.detail).toContain("unknown attribute 'title'");
      const broken = await s.get(`/Users?filter=${encodeURIComponent('userName eq "a" and')}`).expect(400);
      expect(broken.body.scimType).toBe('invalidFilter');
    });

    it('answers a user without userName with 400 invalidValue and a bad PATCH path with 400 invalidPath', async () => {
      const s = await aScimTenant(t);
      const res = await s.post('/Users', { schemas: [USER_SCHEMA], name: { givenName: 'x' } }).expect(400);
      expect(res.body.scimType).toBe('invalidValue');
      const u = await aScimUser(s);
      const p = await s
        .patch(`/Users/${u.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'emails[type eq', value: 'x' }] })
        .expect(400);
      expect(p.body.scimType).toBe('invalidPath');
    });

    it('answers a duplicate group displayName, in any case, with 409 uniqueness', async () => {
      const s = await aScimTenant(t);
      const g = await aScimGroup(s, 'Sales Team');
      const res = await s.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: 'sales team' }).expect(409);
      expect(res.body).toMatchObject({ status: '409', scimType: 'uniqueness' });
      const other = await aScimGroup(s, 'Support');
      await s.patch(`/Groups/${other.id}`, { Operations: [{ op: 'replace', path: 'displayName', value: 'SALES TEAM' }] }).expect(409);
      expect((await s.get(`/Groups/${g.id}`).expect(200)).body.displayName).toBe('Sales Team');
    });
  });

  describe('users', () => {
    it('stores userName lowercased, the primary email over userName, names truncated to 30, email_verified true, no password', async () => {
      const s = await aScimTenant(t);
      const long = 'Maximilianus-Bartholomaeus-Alexander';
      const res = await s
        .post('/Users', {
          schemas: [USER_SCHEMA],
          userName: 'Login.Name@Example.COM',
          name: { givenName: long, familyName: long },
          emails: [
            { value: 'other@example.com', type: 'home' },
            { value: 'Work.Address@Example.com', type: 'work', primary: true },
          ],
          password: 'Secret123!',
          title: 'CEO',
          phoneNumbers: [{ value: '555', type: 'work' }],
        })
        .expect(201);
      expect(res.body.userName).toBe('work.address@example.com');
      expect(res.body.name).toEqual({
        givenName: long.slice(0, 30),
        familyName: long.slice(0, 30),
        formatted: `${long.slice(0, 30)} ${long.slice(0, 30)}`,
      });
      expect(res.body).not.toHaveProperty('title');
      const [row] = await t.dataSource.query(`SELECT email, email_verified, password_hash, oauth_client_id FROM end_users WHERE id = $1`, [
        res.body.id,
      ]);
      expect(row).toEqual({ email: 'work.address@example.com', email_verified: true, password_hash: null, oauth_client_id: null });
    });

    it('writes the user and its audit row together, and neither on a 409', async () => {
      const s = await aScimTenant(t);
      const u = await aScimUser(s);
      await s.post('/Users', userBody(u.userName.toUpperCase())).expect(409);
      const rows = await t.dataSource.query(
        `SELECT a.target_id, a.actor_id FROM audit_events a JOIN scim_tokens k ON k.workspace_id = a.workspace_id
          WHERE k.id = $1 AND a.event_type = 'scim_user_create'`,
        [s.tokenId],
      );
      expect(rows).toEqual([{ target_id: u.id, actor_id: s.tokenId }]);
    });

    it('creates users concurrently in one workspace, each with its audit row', async () => {
      const s = await aScimTenant(t);
      const created = await Promise.all(Array.from({ length: 20 }, () => s.post('/Users', userBody(aUserName('burst')))));
      expect(created.map((r) => r.status)).toEqual(Array(20).fill(201));
      const [{ n }] = await t.dataSource.query(
        `SELECT count(*)::int AS n FROM audit_events a JOIN scim_tokens k ON k.workspace_id = a.workspace_id WHERE k.id = $1 AND a.event_type = 'scim_user_create'`,
        [s.tokenId],
      );
      expect(n).toBe(20);
    });

    it('creates the user although its audit row cannot be written, and counts the failure', async () => {
      const s = await aScimTenant(t);
      await t.dataSource.query(
        `ALTER TABLE audit_events ADD CONSTRAINT test_reject_scim_create CHECK (event_type <> 'scim_user_create') NOT VALID`,
      );
      try {
        const res = await s.post('/Users', userBody(aUserName('unaudited'))).expect(201);
        await s.get(`/Users/${res.body.id}`).expect(200);
        const metrics = await t.http().get('/metrics').expect(200);
        expect(metrics.text).toMatch(/audit_write_failures_total\{mode="transactional"\} [1-9]/);
      } finally {
        await t.dataSource.query(`ALTER TABLE audit_events DROP CONSTRAINT test_reject_scim_create`);
      }
    });

    it('runs a transaction-phase writer that cannot ride the statement inside a transaction with the change', async () => {
      const s = await aScimTenant(t);
      // The unit of work's injected writers (the audit writer): one more, for this test only, that needs a transaction.
      const writers = t.get<TransactionPhaseWriter[]>(TRANSACTION_PHASE_WRITERS);
      const seen: { name: string; inTransaction: boolean; userVisible: boolean }[] = [];
      const probe: TransactionPhaseWriter = {
        name: 'test probe',
        rider: () => null,
        async write(event: DomainEvent, tx: EntityManager | null) {
          const target = event.payload.target?.id ?? null;
          const [row] = tx ? await tx.query(`SELECT count(*)::int AS n FROM end_users WHERE id = $1`, [target]) : [{ n: 0 }];
          seen.push({ name: event.name, inTransaction: tx?.queryRunner?.isTransactionActive ?? false, userVisible: row.n === 1 });
        },
      };
      writers.push(probe);
      try {
        const res = await s.post('/Users', userBody(aUserName('fallback'))).expect(201);
        expect(seen).toEqual([{ name: 'scim_user_create', inTransaction: true, userVisible: true }]);
        const [{ n }] = await t.dataSource.query(
          `SELECT count(*)::int AS n FROM audit_events WHERE event_type = 'scim_user_create' AND target_id = $1`,
          [res.body.id],
        );
        expect(n).toBe(1);
      } finally {
        writers.splice(writers.indexOf(probe), 1);
      }
    });

    it('keeps active unchanged when a PUT omits it', async () => {
      const s = await aScimTenant(t);
      const u = await aScimUser(s);
      await s.patch(`/Users/${u.id}`, { Operations: [{ op: 'replace', path: 'active', value: false }] }).expect(200);
      const put = await s.put(`/Users/${u.id}`, { schemas: [USER_SCHEMA], userName: u.userName, name: { givenName: 'Only' } }).expect(200);
      expect(put.body).toMatchObject({ active: false, name: { givenName: 'Only', formatted: 'Only' } });
      expect(put.body.name).not.toHaveProperty('familyName');
    });

    it('honours attributes and excludedAttributes', async () => {
      const s = await aScimTenant(t);
      const u = await aScimUser(s);
      const only = await s.get(`/Users/${u.id}?attributes=userName,name.givenName`).expect(200);
      expect(only.body).toEqual({ schemas: [USER_SCHEMA], id: u.id, userName: u.userName, name: { givenName: 'Test' } });
      const without = await s.get(`/Users?excludedAttributes=emails,meta`).expect(200);
      expect(without.body.Resources[0]).not.toHaveProperty('emails');
      expect(without.body.Resources[0]).not.toHaveProperty('meta');
      expect(without.body.Resources[0].userName).toBe(u.userName);
    });
  });

  describe('lists', () => {
    it('pages in a stable creation order with count default 100, clamp 200, count=0 and startIndex below 1', async () => {
      const s = await aScimTenant(t);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await aScimUser(s, aUserName(`p${i}`))).id);

      const all = await s.get('/Users').expect(200);
      expect(all.body).toMatchObject({ schemas: [LIST_RESPONSE], totalResults: 5, startIndex: 1, itemsPerPage: 5 });
      expect(all.body.Resources.map((r: { id: string }) => r.id)).toEqual(ids);

      const page = await s.get('/Users?startIndex=2&count=2').expect(200);
      expect(page.body).toMatchObject({ totalResults: 5, startIndex: 2, itemsPerPage: 2 });
      expect(page.body.Resources.map((r: { id: string }) => r.id)).toEqual(ids.slice(1, 3));

      const zero = await s.get('/Users?count=0').expect(200);
      expect(zero.body).toMatchObject({ totalResults: 5, itemsPerPage: 0, Resources: [] });

      const low = await s.get('/Users?startIndex=-4&count=1').expect(200);
      expect(low.body).toMatchObject({ startIndex: 1, itemsPerPage: 1 });
      expect(low.body.Resources[0].id).toBe(ids[0]);

      const past = await s.get('/Users?startIndex=50').expect(200);
      expect(past.body).toMatchObject({ totalResults: 5, startIndex: 50, itemsPerPage: 0, Resources: [] });

      const huge = await s.get('/Users?count=100000').expect(200);
      expect(huge.body.itemsPerPage).toBe(5);
      expect(typeof huge.body.totalResults).toBe('number');
    });

    it('clamps a page to 200 resources', async () => {
      const s = await aScimTenant(t);
      const [{ id: ws }] = await t.dataSource.query(`SELECT workspace_id AS id FROM scim_tokens WHERE id = $1`, [s.tokenId]);
      await t.dataSource.query(
        `INSERT INTO end_users (workspace_id, email, email_verified) SELECT $1, 'bulk' || g || '@example.com', true FROM generate_series(1, 230) g`,
        [ws],
      );
      const res = await s.get('/Users?count=500').expect(200);
      expect(res.body).toMatchObject({ totalResults: 230, itemsPerPage: 200 });
      expect(res.body.Resources).toHaveLength(200);
    });
  });

  describe('groups', () => {
    it('answers a group PATCH without attributes / excludedAttributes with 204 and no body, and with attributes=displayName with just that', async () => {
      const s = await aScimTenant(t);
      const u = await aScimUser(s);
      const g = await aScimGroup(s, 'Sales');
      const add = { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: u.id }] }] };

      const quiet = await s.patch(`/Groups/${g.id}`, add).expect(204);
      expect(quiet.text).toBe('');
      expect(quiet.headers['content-length'] ?? '0').toBe('0');
      expect((await s.get(`/Groups/${g.id}`).expect(200)).body.members.map((m: { value: string }) => m.value)).toEqual([u.id]);
      const [{ n }] = (await t.dataSource.query(
        `SELECT count(*)::int AS n FROM audit_events WHERE event_type = 'scim_group_update' AND target_id = $1`,
        [g.id],
      )) as { n: number }[];
      expect(n).toBe(1);

      // Nothing to change answers 204 too (no audit row); an unknown or another workspace's group is still 404.
      await s.patch(`/Groups/${g.id}`, add).expect(204, '');
      await s.patch(`/Groups/${randomUUID()}`, add).expect(404);
      const other = await aScimTenant(t);
      await other.patch(`/Groups/${g.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'remove', path: 'members' }] }).expect(404);

      const named = await s
        .patch(`/Groups/${g.id}?attributes=displayName`, {
          schemas: [PATCH_OP],
          Operations: [{ op: 'replace', path: 'displayName', value: 'Sales EMEA' }],
        })
        .expect(200);
      expect(named.headers['content-type']).toMatch(/^application\/scim\+json/);
      expect(Object.keys(named.body).sort()).toEqual(['displayName', 'id', 'schemas']);
      expect(named.body).toMatchObject({ id: g.id, displayName: 'Sales EMEA' });

      const lean = await s.patch(`/Groups/${g.id}?excludedAttributes=members`, add).expect(200);
      expect(lean.body).toMatchObject({ id: g.id, displayName: 'Sales EMEA' });
      expect(lean.body).not.toHaveProperty('members');

      // Users' PATCH still answers 200 with the user.
      const user = await s
        .patch(`/Users/${u.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] })
        .expect(200);
      expect(user.body).toMatchObject({ id: u.id, active: false });
    });

    it('silently skips members that are not users of this workspace', async () => {
      const s = await aScimTenant(t);
      const other = await aScimTenant(t);
      const mine = await aScimUser(s);
      const theirs = await aScimUser(other);
      const g = await aScimGroup(s, undefined, [mine.id, theirs.id, randomUUID()]);
      expect(g.members.map((m: { value: string }) => m.value)).toEqual([mine.id]);
      await s.patch(`/Groups/${g.id}`, { Operations: [{ op: 'add', path: 'members', value: [{ value: theirs.id }] }] }).expect(204);
      expect((await s.get(`/Groups/${g.id}`).expect(200)).body.members).toHaveLength(1);
    });

    it('replaces the membership on PUT with members, and keeps it on PUT without', async () => {
      const s = await aScimTenant(t);
      const [a, b, c] = [await aScimUser(s), await aScimUser(s), await aScimUser(s)];
      const g = await aScimGroup(s, undefined, [a.id, b.id]);
      const put = await s
        .put(`/Groups/${g.id}`, { schemas: [GROUP_SCHEMA], displayName: 'Renamed', members: [{ value: b.id }, { value: c.id }] })
        .expect(200);
      expect(put.body.displayName).toBe('Renamed');
      expect(put.body.members.map((m: { value: string }) => m.value).sort()).toEqual([b.id, c.id].sort());
      const keep = await s.put(`/Groups/${g.id}`, { schemas: [GROUP_SCHEMA], displayName: 'Renamed again' }).expect(200);
      expect(keep.body.members).toHaveLength(2);
    });

    it('never drops members when PATCHes adding different members run concurrently', async () => {
      const s = await aScimTenant(t);
      const users = [];
      for (let i = 0; i < 12; i++) users.push(await aScimUser(s));
      const g = await aScimGroup(s);
      await Promise.all(
        users.map((u) =>
          s
            .patch(`/Groups/${g.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: u.id }] }] })
            .expect(204),
        ),
      );
      const res = await s.get(`/Groups/${g.id}`).expect(200);
      expect(res.body.members.map((m: { value: string }) => m.value).sort()).toEqual(users.map((u) => u.id).sort());
    });

    it('finds groups by member and by displayName case-insensitively', async () => {
      const s = await aScimTenant(t);
      const u = await aScimUser(s);
      const g = await aScimGroup(s, 'Finance EMEA', [u.id]);
      await aScimGroup(s, 'Finance US');
      const byMember = await s.get(`/Groups?filter=${encodeURIComponent(`members[value eq "${u.id}"]`)}`).expect(200);
      expect(byMember.body.Resources.map((r: { id: string }) => r.id)).toEqual([g.id]);
      const byName = await s
        .get(`/Groups?filter=${encodeURIComponent('displayName sw "FINANCE" and not (displayName ew "us")')}`)
        .expect(200);
      expect(byName.body.Resources.map((r: { id: string }) => r.id)).toEqual([g.id]);
    });
  });

  it('accepts a user body with userName only', async () => {
    const s = await aScimTenant(t);
    const res = await s.post('/Users', userBody(aUserName(), { name: undefined, emails: undefined })).expect(201);
    expect(res.body).not.toHaveProperty('name');
  });
});
