import { createTestApp, TestApp } from '../support/app';
import { ERROR_SCHEMA } from '../scim/scim-support';

/**
 * Each controller declares its error format (decision 0160): errors its routes raise, and errors
 * raised before a handler is chosen for a path it serves or owns, come in that format.
 */
describe('error surfaces chosen by the route', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const scimError = (status: number, scimType?: string) => ({
    schemas: [ERROR_SCHEMA],
    status: String(status),
    ...(scimType ? { scimType } : {}),
    detail: expect.any(String),
  });

  describe('an error a route raises', () => {
    it('is a SCIM error body on a SCIM controller', async () => {
      const res = await t.http().get('/scim/v2/Users').expect(401);
      expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
      expect(JSON.parse(res.text)).toEqual(scimError(401));
    });

    it('is RFC 6749 §5.2 on the token endpoint, never cached', async () => {
      const res = await t.http().post('/oauth/token').type('form').send('scope=x').expect(400);
      expect(res.body).toEqual({ error: 'invalid_request', error_description: 'grant_type is required' });
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers.pragma).toBe('no-cache');
    });

    it('is the HTML error page on a page a browser navigates to', async () => {
      const res = await t.http().get('/saml/sso/').expect(400);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('SAMLRequest is missing');
    });

    it("is {error, message} on the hosted sign-in's script call, though its forms answer pages", async () => {
      const res = await t.http().post('/auth/login/passkey/options').send({ client_id: 'any' }).expect(403);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({ error: 'csrf_failed', message: 'This sign-in form has expired; reload the page' });
    });

    it('is {error, message} on a controller that declares nothing', async () => {
      const res = await t.http().get('/developer/tokens/').expect(401);
      expect(res.body).toEqual({ error: 'unauthorized', message: expect.any(String) });
    });
  });

  describe('an error raised before a handler is chosen', () => {
    const badJson = '{"userName": ';

    it('takes the format of the route the path reaches', async () => {
      const scim = await t.http().post('/scim/v2/Users').set('Content-Type', 'application/scim+json').send(badJson).expect(400);
      expect(JSON.parse(scim.text)).toEqual(scimError(400, 'invalidSyntax'));
      // Express matches paths without regard to case, and so does the choice of format.
      const upper = await t.http().post('/SCIM/V2/USERS').set('Content-Type', 'application/scim+json').send(badJson).expect(400);
      expect(JSON.parse(upper.text)).toEqual(scimError(400, 'invalidSyntax'));

      const oauth = await t.http().post('/oauth/token').set('Content-Type', 'application/json').send(badJson).expect(400);
      expect(oauth.body).toEqual({ error: 'invalid_request', error_description: 'Request body is not valid JSON' });

      const json = await t.http().post('/developer/tokens/').set('Content-Type', 'application/json').send(badJson).expect(400);
      expect(json.body).toEqual({ error: 'invalid_body', message: 'Request body is not valid JSON' });

      const page = await t.http().post('/auth/login/').set('Content-Type', 'application/json').send(badJson).expect(400);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.text).toContain('Request body is not valid JSON');

      // The hosted security page's forms answer pages; the one route its script calls answers JSON.
      const security = await t.http().post('/auth/security/totp/confirm').set('Content-Type', 'application/json').send(badJson).expect(400);
      expect(security.headers['content-type']).toMatch(/^text\/html/);
      expect(security.text).toContain('Request body is not valid JSON');
      const script = await t
        .http()
        .post('/auth/security/passkeys/options')
        .set('Content-Type', 'application/json')
        .send(badJson)
        .expect(400);
      expect(script.body).toEqual({ error: 'invalid_body', message: 'Request body is not valid JSON' });
      // So does the hosted sign-in's.
      const signInScript = await t
        .http()
        .post('/auth/login/passkey/options')
        .set('Content-Type', 'application/json')
        .send(badJson)
        .expect(400);
      expect(signInScript.body).toEqual({ error: 'invalid_body', message: 'Request body is not valid JSON' });
    });

    it('answers a method the path lacks in the format of the path', async () => {
      const oauth = await t.http().get('/oauth/token').expect(405);
      expect(oauth.headers.allow).toBe('POST');
      expect(oauth.body).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('allowed: POST') });
    });

    it('answers a path no route serves in the format of the SCIM or page controller mounted above it, else JSON', async () => {
      const scim = await t.http().get('/scim/v2/NoSuchResource').expect(404);
      expect(JSON.parse(scim.text)).toEqual(scimError(404));

      const page = await t.http().get('/auth/login/no-such-page').expect(404);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.text).toContain('Page not found');

      // The OAuth format belongs to its endpoints only: a path beside them is JSON.
      const besideOAuth = await t.http().get('/oauth/no-such-endpoint').expect(404);
      expect(besideOAuth.body).toEqual({ error: 'not_found', message: 'No route for GET /oauth/no-such-endpoint' });

      const nowhere = await t.http().get('/no/such/thing').expect(404);
      expect(nowhere.body).toEqual({ error: 'not_found', message: 'No route for GET /no/such/thing' });
    });
  });
});
