import { createTestApp, TestApp } from '../support/app';
import { aDeveloper, aWorkspace, TestDeveloper } from '../support/factories';

const SECRET = 'upstream-client-secret-do-not-show';

describe('SSO connections: the developer API (/developer/external-providers/)', () => {
  let t: TestApp;
  let dev: TestDeveloper;
  let stranger: TestDeveloper;
  beforeAll(async () => {
    t = await createTestApp();
    [dev, stranger] = [await aDeveloper(t), await aDeveloper(t)];
  });
  afterAll(() => t.close());

  const oidc = (workspaceId: string, extra: Record<string, unknown> = {}) => ({
    workspace_id: workspaceId,
    name: 'Acme Okta',
    protocol: 'oidc',
    domains: ['acme.example'],
    oidc: { issuer: 'https://login.acme.example/', client_id: 'client-123', client_secret: SECRET, scopes: ['email', 'profile'] },
    ...extra,
  });
  const auditTypes = async (workspaceId: string) =>
    (
      (await t.http().get('/developer/audit/').query({ workspace_id: workspaceId }).set(dev.auth).expect(200)).body.results as {
        event_type: string;
      }[]
    ).map((e) => e.event_type);

  it('creates, lists, reads, changes and deletes an OIDC connection; the secret is never shown and is encrypted at rest; each change is audited', async () => {
    const ws = await aWorkspace(t, dev);
    const created = await t.http().post('/developer/external-providers/').set(dev.auth).send(oidc(ws.id)).expect(201);
    const id = created.body.id as string;
    expect(created.body).toEqual({
      id: expect.any(String),
      workspace_id: ws.id,
      name: 'Acme Okta',
      protocol: 'oidc',
      domains: ['acme.example'],
      domain_verifications: [
        {
          domain: 'acme.example',
          status: 'pending',
          verified: false,
          verified_at: null,
          checked_at: null,
          txt_record_name: '_idsvc-verification.acme.example',
          txt_record_value: expect.stringMatching(/^idsvc-domain-verification=[A-Za-z0-9_-]{24}$/),
        },
      ],
      jit: false,
      trust_upstream_mfa: false,
      sign_in_url: `${t.config.PUBLIC_BASE_URL}/auth/sso/${id}/`,
      redirect_uri: `${t.config.PUBLIC_BASE_URL}/auth/sso/${id}/callback`,
      jwks_uri: `${t.config.PUBLIC_BASE_URL}/auth/sso/${id}/jwks`,
      oidc: {
        issuer: 'https://login.acme.example',
        client_id: 'client-123',
        has_client_secret: true,
        token_endpoint_auth_method: 'client_secret_basic',
        scopes: ['openid', 'email', 'profile'],
        claim_mapping: {},
      },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(JSON.stringify(created.body)).not.toContain(SECRET);
    const [stored] = await t.dataSource.query<{ oidc_client_secret_encrypted: string }[]>(
      'SELECT oidc_client_secret_encrypted FROM sso_connections WHERE id = $1',
      [id],
    );
    expect(stored.oidc_client_secret_encrypted).toMatch(/^v1:/);
    expect(stored.oidc_client_secret_encrypted).not.toContain(SECRET);

    const listed = await t.http().get('/developer/external-providers/').query({ workspace_id: ws.id }).set(dev.auth).expect(200);
    expect(listed.body.results).toEqual([created.body]);
    expect((await t.http().get(`/developer/external-providers/${id}/`).set(dev.auth).expect(200)).body).toEqual(created.body);

    const changed = await t
      .http()
      .patch(`/developer/external-providers/${id}/`)
      .set(dev.auth)
      .send({ name: 'Acme Entra', jit: true, trust_upstream_mfa: true, domains: ['acme.example', 'acme.test'] })
      .expect(200);
    expect(changed.body).toMatchObject({ name: 'Acme Entra', jit: true, trust_upstream_mfa: true, domains: ['acme.example', 'acme.test'] });
    // A kept domain keeps its verification record.
    expect(changed.body.domain_verifications[0].txt_record_value).toBe(created.body.domain_verifications[0].txt_record_value);
    expect(changed.body.oidc.has_client_secret).toBe(true);

    await t.http().delete(`/developer/external-providers/${id}/`).set(dev.auth).expect(204);
    await t.http().get(`/developer/external-providers/${id}/`).set(dev.auth).expect(404);
    expect(await auditTypes(ws.id)).toEqual(
      expect.arrayContaining(['external_provider_create', 'external_provider_update', 'external_provider_delete']),
    );
  });

  it('creates a SAML connection with two IdP certificates and answers the values to paste into the IdP', async () => {
    const ws = await aWorkspace(t, dev);
    const res = await t
      .http()
      .post('/developer/external-providers/')
      .set(dev.auth)
      .send({
        workspace_id: ws.id,
        name: 'Acme SAML',
        protocol: 'saml',
        saml: {
          idp_entity_id: 'https://idp.acme.example/saml',
          idp_sso_url: 'https://idp.acme.example/sso',
          idp_certificates: ['-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----', 'second'],
          attribute_mapping: { email: 'mail', subject: 'objectGUID' },
        },
      })
      .expect(201);
    const id = res.body.id as string;
    expect(res.body).toMatchObject({
      protocol: 'saml',
      sp_entity_id: `${t.config.PUBLIC_BASE_URL}/auth/sso/${id}/saml/metadata`,
      acs_url: `${t.config.PUBLIC_BASE_URL}/auth/sso/${id}/saml/acs`,
      sp_metadata_url: `${t.config.PUBLIC_BASE_URL}/auth/sso/${id}/saml/metadata`,
      saml: {
        idp_entity_id: 'https://idp.acme.example/saml',
        idp_sso_url: 'https://idp.acme.example/sso',
        allow_unsolicited: false,
        attribute_mapping: { email: 'mail', subject: 'objectGUID' },
      },
    });
    expect(res.body.saml.idp_certificates).toHaveLength(2);
    expect(res.body).not.toHaveProperty('redirect_uri');
  });

  it('private_key_jwt needs no secret and keeps its key across updates', async () => {
    const ws = await aWorkspace(t, dev);
    const res = await t
      .http()
      .post('/developer/external-providers/')
      .set(dev.auth)
      .send(oidc(ws.id, { oidc: { issuer: 'https://login.acme.example', client_id: 'c', token_endpoint_auth_method: 'private_key_jwt' } }))
      .expect(201);
    expect(res.body.oidc).toMatchObject({ token_endpoint_auth_method: 'private_key_jwt', has_client_secret: false });
    const key = async () =>
      (
        await t.dataSource.query<{ k: string }[]>('SELECT oidc_private_key_encrypted AS k FROM sso_connections WHERE id = $1', [
          res.body.id,
        ])
      )[0].k;
    const before = await key();
    expect(before).toMatch(/^v1:/);
    await t
      .http()
      .patch(`/developer/external-providers/${res.body.id}/`)
      .set(dev.auth)
      .send({ oidc: { issuer: 'https://login.acme.example', client_id: 'c2' } })
      .expect(200);
    expect(await key()).toBe(before);
  });

  it.each([
    ['an oidc connection without its settings', { oidc: undefined }, 'oidc'],
    ['a client secret method without a secret', { oidc: { issuer: 'https://login.acme.example', client_id: 'c' } }, 'oidc.client_secret'],
    ['the other protocol settings', { saml: { idp_entity_id: 'x' } }, 'saml'],
    ['a saml connection without its settings', { protocol: 'saml', oidc: undefined }, 'saml'],
    ['oidc settings on a saml connection', { protocol: 'saml', saml: { idp_entity_id: 'x' } }, 'oidc'],
    ['an issuer that is not a URL', { oidc: { issuer: 'not a url', client_id: 'c', client_secret: 's' } }, 'oidc.issuer'],
    ['a domain that is not a domain name', { domains: ['not a domain'] }, 'domains'],
    ['an unknown field', { color: 'red' }, 'color'],
    [
      'an unknown mapping field',
      { oidc: { issuer: 'https://a.example', client_id: 'c', client_secret: 's', claim_mapping: { x: 'y' } } },
      'oidc.claim_mapping.x',
    ],
    ['three certificates', { protocol: 'saml', oidc: undefined, saml: { idp_certificates: ['a', 'b', 'c'] } }, 'saml.idp_certificates'],
  ])('refuses %s with 400 validation_failed naming the field, writing nothing', async (_what, patch, field) => {
    const ws = await aWorkspace(t, dev);
    const res = await t.http().post('/developer/external-providers/').set(dev.auth).send(oidc(ws.id, patch)).expect(400);
    expect(res.body.error).toBe('validation_failed');
    expect(Object.keys(res.body.details ?? {})).toContain(field);
    const listed = await t.http().get('/developer/external-providers/').query({ workspace_id: ws.id }).set(dev.auth).expect(200);
    expect(listed.body.results).toEqual([]);
  });

  it('keeps an email domain to one connection of a workspace (409 domain_taken)', async () => {
    const ws = await aWorkspace(t, dev);
    await t.http().post('/developer/external-providers/').set(dev.auth).send(oidc(ws.id)).expect(201);
    const res = await t
      .http()
      .post('/developer/external-providers/')
      .set(dev.auth)
      .send(oidc(ws.id, { name: 'Second' }))
      .expect(409);
    expect(res.body.error).toBe('domain_taken');
    const listed = await t.http().get('/developer/external-providers/').query({ workspace_id: ws.id }).set(dev.auth).expect(200);
    expect(listed.body.results).toHaveLength(1);
  });

  it("answers 404 for another workspace's connection on every route, and changes nothing", async () => {
    const ws = await aWorkspace(t, dev);
    const id = (await t.http().post('/developer/external-providers/').set(dev.auth).send(oidc(ws.id)).expect(201)).body.id as string;
    await t.http().get(`/developer/external-providers/${id}/`).set(stranger.auth).expect(404);
    await t.http().patch(`/developer/external-providers/${id}/`).set(stranger.auth).send({ name: 'Mine' }).expect(404);
    await t.http().delete(`/developer/external-providers/${id}/`).set(stranger.auth).expect(404);
    await t.http().get(`/developer/external-providers/${id}/attempts/`).set(stranger.auth).expect(404);
    await t.http().get('/developer/external-providers/').query({ workspace_id: ws.id }).set(stranger.auth).expect(404);
    await t.http().get('/developer/external-providers/not-a-uuid/').set(dev.auth).expect(404);
    expect((await t.http().get(`/developer/external-providers/${id}/`).set(dev.auth).expect(200)).body.name).toBe('Acme Okta');
  });

  it('lists no attempts for a new connection', async () => {
    const ws = await aWorkspace(t, dev);
    const id = (await t.http().post('/developer/external-providers/').set(dev.auth).send(oidc(ws.id)).expect(201)).body.id as string;
    expect((await t.http().get(`/developer/external-providers/${id}/attempts/`).set(dev.auth).expect(200)).body).toEqual({ results: [] });
    await t.http().get(`/developer/external-providers/${id}/attempts/`).query({ limit: 0 }).set(dev.auth).expect(400);
  });
});
