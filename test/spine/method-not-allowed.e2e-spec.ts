import { createTestApp, TestApp } from '../support/app';
import { aDeveloper, aWorkspace } from '../support/factories';
import { aScimTenant, aScimUser, ERROR_SCHEMA } from '../scim/scim-support';

/** A method the path does not support is a 405 with Allow (RFC 9110 §15.5.6), not a 404 (issue 13, item 15). */
describe('405 Method Not Allowed with Allow', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const allowOf = (res: { headers: Record<string, string> }) => res.headers.allow?.split(/,\s*/).sort();

  it.each([
    ['put', '/developer/tokens/', ['GET', 'HEAD', 'POST']],
    ['delete', '/developer/auth/signup/', ['POST']],
    ['patch', '/e/v1/auth/login/', ['POST']],
    ['get', '/e/v1/auth/register/', ['POST']],
    ['post', '/health/live', ['GET', 'HEAD']],
    ['put', '/e/v1/developer/workspaces/00000000-0000-4000-8000-000000000000/', ['DELETE', 'GET', 'HEAD', 'PATCH']],
  ] as const)('%s %s answers 405 with Allow in the JSON error format', async (method, path, allow) => {
    const res = await t.http()[method](path);
    expect(res.status).toBe(405);
    expect(allowOf(res)).toEqual(expect.arrayContaining([...allow]));
    expect(res.body).toEqual({ error: 'method_not_allowed', message: expect.stringContaining('allowed:') });
  });

  it('keeps 404 for a path no route serves', async () => {
    const res = await t.http().put('/no/such/thing/');
    expect(res.status).toBe(404);
    expect(res.headers.allow).toBeUndefined();
  });

  it('answers SCIM paths with 405, Allow and the SCIM error body', async () => {
    const s = await aScimTenant(t);
    const u = await aScimUser(s);
    const cases = [
      [s.put('/Users', {}), ['GET', 'HEAD', 'POST']],
      [s.delete('/Groups'), ['GET', 'HEAD', 'POST']],
      [s.post(`/Users/${u.id}`, {}), ['DELETE', 'GET', 'HEAD', 'PATCH', 'PUT']],
      [s.patch('/ServiceProviderConfig', {}), ['GET', 'HEAD']],
      [s.delete(`/Schemas/urn:ietf:params:scim:schemas:core:2.0:User`), ['GET', 'HEAD']],
      [s.delete('/.search'), ['POST']],
    ] as const;
    for (const [i, [pending, allow]] of cases.entries()) {
      const res = await pending;
      expect({ i, status: res.status }).toEqual({ i, status: 405 });
      expect(allowOf(res)).toEqual([...allow].sort());
      expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
      expect(res.body).toMatchObject({ schemas: [ERROR_SCHEMA], status: '405' });
    }
  });

  it('leaves the routes themselves as they were', async () => {
    const dev = await aDeveloper(t);
    const ws = await aWorkspace(t, dev);
    await t.http().get(`/e/v1/developer/workspaces/${ws.id}/`).set(dev.auth).expect(200);
    await t.http().head('/health/live').expect(200);
  });
});
