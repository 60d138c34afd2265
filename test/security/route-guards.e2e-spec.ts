import { createTestApp, TestApp } from '../support/app';
import { listRoutes } from '../support/routes';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const fill = (path: string) => path.replace(/:(\w+)/g, '00000000-0000-4000-8000-000000000000');

/** Checked for every route the router knows, so a new endpoint cannot be forgotten. */
describe('every route declares and enforces its authentication', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp();
    const email = `csrf-${Date.now()}@example.test`;
    await t.http().post('/developer/auth/signup/').send({ email, password: 'password-123', name: 'C' }).expect(201);
    const login = await t.http().post('/developer/auth/login/').send({ email, password: 'password-123' }).expect(200);
    cookie = ([] as string[])
      .concat(login.headers['set-cookie'])
      .map((c) => c.split(';')[0])
      .join('; ');
  });
  afterAll(() => t.close());

  it('has an @Auth declaration on every route', () => {
    const routes = listRoutes(t.app);
    expect(routes.length).toBeGreaterThan(10);
    expect(routes.filter((r) => !r.auth).map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it('refuses anonymous calls on every non-public route with 401', async () => {
    for (const route of listRoutes(t.app).filter((r) => r.auth !== 'public')) {
      const res = await t.http()[route.method.toLowerCase() as 'get'](fill(route.path)).send({});
      expect({ route: `${route.method} ${route.path}`, status: res.status }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 401,
      });
    }
  });

  it('requires X-CSRF-Token on every cookie-authenticated unsafe developer route', async () => {
    const unsafe = listRoutes(t.app).filter((r) => r.auth === 'developer' && UNSAFE.has(r.method));
    expect(unsafe.length).toBeGreaterThan(5);
    for (const route of unsafe) {
      const res = await t.http()[route.method.toLowerCase() as 'post'](fill(route.path)).set('Cookie', cookie).send({});
      expect({ route: `${route.method} ${route.path}`, status: res.status, error: res.body.error }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 403,
        error: 'csrf_failed',
      });
    }
  });
});
