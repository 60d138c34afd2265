import { createTestApp, TestApp } from '../support/app';
import { aScimGroup, aScimTenant, GROUP_SCHEMA, PATCH_OP } from './scim-support';

/** Entra sends externalId on every group and later finds the group with `externalId eq` (RFC 7643 §3.1). */
describe('SCIM group externalId', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('keeps the client value as sent, returns it and finds the group by it, per workspace', async () => {
    const a = await aScimTenant(t);
    const b = await aScimTenant(t);
    const created = await a.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Sales', externalId: 'Entra-Obj-1' }).expect(201);
    expect(created.body.externalId).toBe('Entra-Obj-1');
    expect((await a.get(`/Groups/${created.body.id}`).expect(200)).body.externalId).toBe('Entra-Obj-1');
    // Same externalId in another workspace: its own group, invisible to the first.
    const other = await b.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Sales', externalId: 'Entra-Obj-1' }).expect(201);

    const found = await a.get(`/Groups?filter=${encodeURIComponent('externalId eq "Entra-Obj-1"')}`).expect(200);
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0]).toMatchObject({ id: created.body.id, externalId: 'Entra-Obj-1' });
    const inB = await b.get(`/Groups?filter=${encodeURIComponent('externalId eq "Entra-Obj-1"')}`).expect(200);
    expect(inB.body.Resources.map((g: { id: string }) => g.id)).toEqual([other.body.id]);
    // caseExact (RFC 7643 §3.1): a different case is a different id.
    expect((await a.get(`/Groups?filter=${encodeURIComponent('externalId eq "entra-obj-1"')}`).expect(200)).body.totalResults).toBe(0);
    expect((await a.get(`/Groups?filter=${encodeURIComponent('externalId pr')}`).expect(200)).body.totalResults).toBe(1);
  });

  it('is changed by PATCH and PUT, cleared by PATCH remove, and kept by a PUT that does not send it', async () => {
    const s = await aScimTenant(t);
    const g = await aScimGroup(s);
    expect(g).not.toHaveProperty('externalId');
    const patched = await s
      .patch(`/Groups/${g.id}?attributes=externalId`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'add', path: 'externalId', value: 'ext-1' }],
      })
      .expect(200);
    expect(patched.body.externalId).toBe('ext-1');
    expect(patched.body).not.toHaveProperty('displayName');
    const put = await s.put(`/Groups/${g.id}`, { schemas: [GROUP_SCHEMA], displayName: 'Renamed' }).expect(200);
    expect(put.body).toMatchObject({ displayName: 'Renamed', externalId: 'ext-1' });
    await s.put(`/Groups/${g.id}`, { schemas: [GROUP_SCHEMA], displayName: 'Renamed', externalId: 'ext-2' }).expect(200);
    await s.patch(`/Groups/${g.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { externalId: 'ext-3' } }] }).expect(204);
    expect((await s.get(`/Groups/${g.id}`).expect(200)).body.externalId).toBe('ext-3');
    const removed = await s
      .patch(`/Groups/${g.id}?excludedAttributes=members`, { schemas: [PATCH_OP], Operations: [{ op: 'remove', path: 'externalId' }] })
      .expect(200);
    expect(removed.body).not.toHaveProperty('externalId');
    expect(removed.body).not.toHaveProperty('members');
    expect((await s.get(`/Groups?filter=${encodeURIComponent('externalId pr')}`).expect(200)).body.totalResults).toBe(0);
  });

  it('refuses an externalId that is not a string with invalidValue', async () => {
    const s = await aScimTenant(t);
    const res = await s.post('/Groups', { schemas: [GROUP_SCHEMA], displayName: 'X', externalId: 42 }).expect(400);
    expect(res.body).toMatchObject({ scimType: 'invalidValue' });
  });

  it('is described by the Group schema as a case-exact, writable attribute', async () => {
    const s = await aScimTenant(t);
    const res = await s.get(`/Schemas/${GROUP_SCHEMA}`).expect(200);
    expect(res.body.attributes.find((a: { name: string }) => a.name === 'externalId')).toMatchObject({
      type: 'string',
      caseExact: true,
      mutability: 'readWrite',
    });
  });
});
