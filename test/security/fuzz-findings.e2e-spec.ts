import { createTestApp, TestApp } from '../support/app';
import { aDeveloper, anOAuthClient, aWorkspace, TestDeveloper, TestOAuthClient, TestWorkspace } from '../support/factories';
import { OpenApiDocument, ResponseChecker, Schema } from '../support/openapi-fuzz';
import { samlEnv } from '../saml/support/saml-env';
import { aScimToken, USER_SCHEMA } from '../scim/scim-support';

/**
 * What the schema-driven fuzzer of issue 28 found, one named test each, so each stays fixed even
 * if the generator one day stops drawing the request (test/security/openapi-fuzz.e2e-spec.ts).
 */
describe('fuzzer findings of issue 28', () => {
  let t: TestApp;
  let doc: OpenApiDocument;
  let dev: TestDeveloper;
  let ws: TestWorkspace;
  let client: TestOAuthClient;
  let spId: string;
  let webhookId: string;

  beforeAll(async () => {
    t = await createTestApp(samlEnv({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }));
    doc = (await t.http().get('/openapi.json').expect(200)).body as OpenApiDocument;
    dev = await aDeveloper(t);
    ws = await aWorkspace(t, dev);
    client = await anOAuthClient(t, dev, ws);
    spId = (await t.http().post('/developer/saml/sps/').set(dev.auth).send(aServiceProvider()).expect(201)).body.id as string;
    webhookId = (
      await t
        .http()
        .post('/developer/webhooks/')
        .set(dev.auth)
        .send({ workspace_id: ws.id, url: 'http://127.0.0.1:9/hook', event_types: ['*'], description: 'audit feed' })
        .expect(201)
    ).body.id as string;
  });
  afterAll(() => t.close());

  function aServiceProvider(): Record<string, unknown> {
    const unique = Math.random().toString(36).slice(2, 10);
    return {
      workspace_id: ws.id,
      name: `SP ${unique}`,
      sp_entity_id: `https://sp-${unique}.example.test`,
      acs_url: 'https://sp.example.test/acs',
    };
  }

  function schemaOf(name: string): Schema {
    return doc.components!.schemas![name];
  }

  function expectRefusedNull(res: { status: number; body: { error?: string; details?: Record<string, string[]> } }, field: string) {
    expect({ status: res.status, error: res.body.error, problems: res.body.details?.[field] }).toEqual({
      status: 400,
      error: 'validation_failed',
      problems: expect.arrayContaining([`${field} must not be null`]) as unknown,
    });
  }

  describe('null in a field that was answered 500', () => {
    const SP_FIELDS = ['name', 'name_id_format', 'sign_assertions', 'is_active', 'attribute_mapping'];

    it.each(SP_FIELDS)(
      'POST /developer/saml/sps/ refuses null in %s with 400 validation_failed naming it, and registers nothing',
      async (field) => {
        const body = { ...aServiceProvider(), [field]: null };
        expectRefusedNull(await t.http().post('/developer/saml/sps/').set(dev.auth).send(body), field);
        const list = await t.http().get('/developer/saml/sps/').query({ workspace_id: ws.id }).set(dev.auth).expect(200);
        expect((list.body.results as { sp_entity_id: string }[]).map((sp) => sp.sp_entity_id)).not.toContain(body.sp_entity_id);
      },
    );

    it.each(SP_FIELDS)(
      'PUT /developer/saml/sps/{id}/ refuses null in %s with 400 validation_failed naming it, and keeps the SP',
      async (field) => {
        const before = (await t.http().get(`/developer/saml/sps/${spId}/`).set(dev.auth).expect(200)).body as Record<string, unknown>;
        expectRefusedNull(
          await t
            .http()
            .put(`/developer/saml/sps/${spId}/`)
            .set(dev.auth)
            .send({ [field]: null }),
          field,
        );
        const after = (await t.http().get(`/developer/saml/sps/${spId}/`).set(dev.auth).expect(200)).body as Record<string, unknown>;
        expect(after[field]).toEqual(before[field]);
      },
    );

    it.each(['event_types', 'description', 'is_active'])(
      'PATCH /developer/webhooks/{id}/ refuses null in %s with 400 validation_failed naming it, and keeps the endpoint',
      async (field) => {
        const before = (await t.http().get(`/developer/webhooks/${webhookId}/`).set(dev.auth).expect(200)).body as Record<string, unknown>;
        expectRefusedNull(
          await t
            .http()
            .patch(`/developer/webhooks/${webhookId}/`)
            .set(dev.auth)
            .send({ [field]: null }),
          field,
        );
        const after = (await t.http().get(`/developer/webhooks/${webhookId}/`).set(dev.auth).expect(200)).body as Record<string, unknown>;
        expect(after[field]).toEqual(before[field]);
      },
    );
  });

  describe('null in a non-nullable field that was silently accepted', () => {
    /** [operation, field, request]: every optional field of a JSON body the document types as non-nullable. */
    const cases: [string, string, () => { method: 'post' | 'put' | 'patch'; path: string; body: Record<string, unknown> }][] = [
      [
        'POST /e/v1/developer/workspaces/',
        'description',
        () => ({ method: 'post', path: '/e/v1/developer/workspaces/', body: { name: 'ws' } }),
      ],
      [
        'PATCH /e/v1/developer/workspaces/{id}/',
        'name',
        () => ({ method: 'patch', path: `/e/v1/developer/workspaces/${ws.id}/`, body: {} }),
      ],
      [
        'PATCH /e/v1/developer/workspaces/{id}/',
        'description',
        () => ({ method: 'patch', path: `/e/v1/developer/workspaces/${ws.id}/`, body: {} }),
      ],
      [
        'POST /developer/oauth/clients/',
        'redirect_uris',
        () => ({ method: 'post', path: '/developer/oauth/clients/', body: { workspace_id: ws.id, name: 'App' } }),
      ],
      ['PUT /developer/oauth/clients/{id}/', 'name', () => ({ method: 'put', path: `/developer/oauth/clients/${client.id}/`, body: {} })],
      [
        'PUT /developer/oauth/clients/{id}/',
        'redirect_uris',
        () => ({ method: 'put', path: `/developer/oauth/clients/${client.id}/`, body: {} }),
      ],
      [
        'POST /developer/webhooks/',
        'description',
        () => ({
          method: 'post',
          path: '/developer/webhooks/',
          body: { workspace_id: ws.id, url: 'http://127.0.0.1:9/hook', event_types: ['*'] },
        }),
      ],
      ['PATCH /developer/webhooks/{id}/', 'url', () => ({ method: 'patch', path: `/developer/webhooks/${webhookId}/`, body: {} })],
      [
        'POST /e/v1/auth/register/',
        'first_name',
        () => ({
          method: 'post',
          path: '/e/v1/auth/register/',
          body: { client_id: client.client_id, email: 'null-first@example.test', password: 'pw-correct-horse-1' },
        }),
      ],
      [
        'POST /e/v1/auth/register/',
        'last_name',
        () => ({
          method: 'post',
          path: '/e/v1/auth/register/',
          body: { client_id: client.client_id, email: 'null-last@example.test', password: 'pw-correct-horse-1' },
        }),
      ],
      [
        'POST /e/v1/auth/password/reset/',
        'workspace_id',
        () => ({ method: 'post', path: '/e/v1/auth/password/reset/', body: { client_id: client.client_id, email: 'a@example.test' } }),
      ],
      [
        'POST /e/v1/auth/password/reset/',
        'client_id',
        () => ({ method: 'post', path: '/e/v1/auth/password/reset/', body: { workspace_id: ws.id, email: 'a@example.test' } }),
      ],
      [
        'POST /e/v1/auth/password/reset/confirm/',
        'workspace_id',
        () => ({
          method: 'post',
          path: '/e/v1/auth/password/reset/confirm/',
          body: { client_id: client.client_id, email: 'a@example.test', code: '123456', new_password: 'pw-correct-horse-2' },
        }),
      ],
      [
        'POST /e/v1/auth/password/reset/confirm/',
        'client_id',
        () => ({
          method: 'post',
          path: '/e/v1/auth/password/reset/confirm/',
          body: { workspace_id: ws.id, email: 'a@example.test', code: '123456', new_password: 'pw-correct-horse-2' },
        }),
      ],
      ['POST /developer/saml/sps/', 'metadata_xml', () => ({ method: 'post', path: '/developer/saml/sps/', body: aServiceProvider() })],
      ['PUT /developer/saml/sps/{id}/', 'metadata_xml', () => ({ method: 'put', path: `/developer/saml/sps/${spId}/`, body: {} })],
    ];

    it.each(cases)('%s refuses null in %s with 400 validation_failed naming it', async (_operation, field, request) => {
      const { method, path, body } = request();
      const http = t.http();
      expectRefusedNull(
        await http[method](path)
          .set(dev.auth)
          .send({ ...body, [field]: null }),
        field,
      );
    });

    it('the document types each of these fields as non-nullable', () => {
      const byOperation: Record<string, string> = {
        'POST /e/v1/developer/workspaces/': 'CreateWorkspaceDto',
        'PATCH /e/v1/developer/workspaces/{id}/': 'UpdateWorkspaceDto',
        'POST /developer/oauth/clients/': 'CreateOAuthClientDto',
        'PUT /developer/oauth/clients/{id}/': 'UpdateOAuthClientDto',
        'POST /developer/webhooks/': 'CreateWebhookDto',
        'PATCH /developer/webhooks/{id}/': 'UpdateWebhookDto',
        'POST /e/v1/auth/register/': 'RegisterDto',
        'POST /e/v1/auth/password/reset/': 'PasswordResetRequestDto',
        'POST /e/v1/auth/password/reset/confirm/': 'PasswordResetConfirmDto',
        'POST /developer/saml/sps/': 'CreateSamlSpDto',
        'PUT /developer/saml/sps/{id}/': 'UpdateSamlSpDto',
      };
      const nullable = cases.filter(([operation, field]) => schemaOf(byOperation[operation]).properties?.[field]?.nullable === true);
      expect(nullable).toEqual([]);
    });
  });

  describe('nullable fields: declared in the document, and null means what it says', () => {
    it('POST /developer/tokens/ takes expires_at null as a token that lasts until revoked', async () => {
      expect(schemaOf('CreateDeveloperTokenDto').properties?.expires_at?.nullable).toBe(true);
      const res = await t.http().post('/developer/tokens/').set(dev.auth).send({ label: 'ci', expires_at: null }).expect(201);
      expect(res.body.expires_at).toBeNull();
      await t
        .http()
        .get('/developer/me/')
        .set('Authorization', `Bearer ${res.body.token as string}`)
        .expect(200);
    });

    it('POST /developer/scim/tokens/ takes expires_at null as a token that lasts until revoked', async () => {
      expect(schemaOf('CreateScimTokenDto').properties?.expires_at?.nullable).toBe(true);
      const res = await t
        .http()
        .post('/developer/scim/tokens/')
        .set(dev.auth)
        .send({ workspace_id: ws.id, label: 'idp', expires_at: null })
        .expect(201);
      expect(res.body.expires_at).toBeNull();
    });

    it('PUT /developer/saml/sps/{id}/ with default_relay_state null removes it', async () => {
      expect(schemaOf('UpdateSamlSpDto').properties?.default_relay_state?.nullable).toBe(true);
      await t
        .http()
        .put(`/developer/saml/sps/${spId}/`)
        .set(dev.auth)
        .send({ default_relay_state: 'https://app.example.test/home' })
        .expect(200);
      const res = await t.http().put(`/developer/saml/sps/${spId}/`).set(dev.auth).send({ default_relay_state: null }).expect(200);
      expect(res.body.default_relay_state).toBeNull();
    });
  });

  describe('numeric query parameters and cursors bounded to what is stored', () => {
    const checkpoints = (cursor: string) =>
      t.http().get('/developer/audit/checkpoints/').query({ workspace_id: ws.id, cursor }).set(dev.auth);

    it.each(['9223372036854775808', '9223372036854775807', '9007199254740993', '18446744073709551616', '-1', '1e3', '0x10', ' 1', '1.5'])(
      'GET /developer/audit/checkpoints/ answers cursor=%s with 400 validation_failed, not 500',
      async (cursor) => {
        const res = await checkpoints(cursor);
        expect({ status: res.status, error: res.body.error, field: Object.keys(res.body.details ?? {}) }).toEqual({
          status: 400,
          error: 'validation_failed',
          field: ['cursor'],
        });
      },
    );

    it('GET /developer/audit/checkpoints/ takes the largest documented cursor and documents it as the maximum', async () => {
      const parameter = (doc.paths['/developer/audit/checkpoints/'].get.parameters ?? []).find((p) => p.name === 'cursor');
      expect(parameter?.schema).toMatchObject({ type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
      const res = await checkpoints(String(Number.MAX_SAFE_INTEGER)).expect(200);
      expect(res.body).toEqual({ results: [], next_cursor: null });
    });

    it.each([
      ['/developer/audit/', 'limit'],
      ['/developer/audit/checkpoints/', 'limit'],
    ])('GET %s refuses %s=0x10 (read as 16 before) with 400', async (path, name) => {
      const res = await t
        .http()
        .get(path)
        .query({ workspace_id: ws.id, [name]: '0x10' })
        .set(dev.auth);
      expect({ status: res.status, field: Object.keys(res.body.details ?? {}) }).toEqual({ status: 400, field: [name] });
    });
  });

  describe('values the document refuses that were stored', () => {
    it.each(['\u{F7A1F}\u{F2167}\u{D5A49}', 'app.example.test/callback', 'https://\u00e9.example/callback'])(
      'POST /developer/oauth/clients/ refuses the redirect URI %j (not an absolute ASCII URI) with 400',
      async (uri) => {
        const res = await t
          .http()
          .post('/developer/oauth/clients/')
          .set(dev.auth)
          .send({ workspace_id: ws.id, name: 'App', redirect_uris: [uri] });
        expect({ status: res.status, error: res.body.error, field: Object.keys(res.body.details ?? {}) }).toEqual({
          status: 400,
          error: 'validation_failed',
          field: ['redirect_uris'],
        });
      },
    );

    it('PUT /developer/oauth/clients/{id}/ refuses a redirect URI without a scheme and keeps the registered ones', async () => {
      const res = await t
        .http()
        .put(`/developer/oauth/clients/${client.id}/`)
        .set(dev.auth)
        .send({ redirect_uris: ['\u{F7A1F}\u{F2167}'] });
      expect(res.status).toBe(400);
      const after = await t.http().get(`/developer/oauth/clients/${client.id}/`).set(dev.auth).expect(200);
      expect(after.body.redirect_uris).toEqual(['https://app.example.test/callback']);
    });
  });

  describe('statuses and bodies the document left out', () => {
    it.each(['/developer/oauth/clients/', '/developer/scim/tokens/'])(
      'GET %s without a valid workspace_id answers 400 validation_failed, and the document lists it',
      async (path) => {
        const res = await t.http().get(path).query({ workspace_id: 'not-a-uuid' }).set(dev.auth);
        expect({ status: res.status, error: res.body.error }).toEqual({ status: 400, error: 'validation_failed' });
        expect(Object.keys(doc.paths[path].get.responses)).toContain('400');
      },
    );

    it('GET /scim/v2/Users/{id} answers a URL with U+0000 with 400 invalidValue, and the document lists it', async () => {
      const scim = (await aScimToken(t, dev, ws)).token;
      const user = await t
        .http()
        .post('/scim/v2/Users')
        .set('Authorization', `Bearer ${scim}`)
        .send({ schemas: [USER_SCHEMA], userName: 'partial@example.test' })
        .expect(201);
      const res = await t
        .http()
        .get(`/scim/v2/Users/${user.body.id as string}`)
        .query({ attributes: 'a\u0000b' })
        .set('Authorization', `Bearer ${scim}`);
      expect({ status: res.status, scimType: res.body.scimType }).toEqual({ status: 400, scimType: 'invalidValue' });
      expect(Object.keys(doc.paths['/scim/v2/Users/{id}'].get.responses)).toContain('400');
    });

    it('GET /scim/v2/Users/{id}?attributes=… answers a partial user that the document allows', async () => {
      const scim = (await aScimToken(t, dev, ws)).token;
      const user = await t
        .http()
        .post('/scim/v2/Users')
        .set('Authorization', `Bearer ${scim}`)
        .send({ schemas: [USER_SCHEMA], userName: 'projected@example.test' })
        .expect(201);
      const res = await t
        .http()
        .get(`/scim/v2/Users/${user.body.id as string}`)
        .query({ attributes: 'emails' })
        .set('Authorization', `Bearer ${scim}`)
        .expect(200);
      expect(res.body.userName).toBeUndefined();
      const checker = new ResponseChecker(doc);
      const documented = doc.paths['/scim/v2/Users/{id}'].get.responses['200'].content!['application/scim+json'].schema!;
      expect(checker.check(documented, res.body)).toEqual([]);
      // The full representation still promises userName: only a projection may leave it out.
      expect(checker.check({ $ref: '#/components/schemas/ScimUser' }, res.body)).not.toEqual([]);
    });
  });
});
