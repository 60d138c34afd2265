import { randomUUID } from 'node:crypto';
import { generateDevKeyPair } from '../../src/saml/idp/dev-keypair';
import { createTestApp, TestApp } from '../support/app';
import { aDeveloper, aWorkspace, TestDeveloper, TestWorkspace } from '../support/factories';
import { samlEnv } from './support/saml-env';

const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const entityId = () => `https://sp-${randomUUID().slice(0, 8)}.example.com/metadata`;

describe('SAML service-provider registry', () => {
  let t: TestApp;
  let dev: TestDeveloper;
  let ws: TestWorkspace;
  beforeAll(async () => {
    t = await createTestApp(samlEnv());
    dev = await aDeveloper(t);
    ws = await aWorkspace(t, dev);
  });
  afterAll(() => t.close());

  const create = (body: Record<string, unknown>, who = dev) =>
    t
      .http()
      .post('/developer/saml/sps/')
      .set(who.auth)
      .send({ workspace_id: ws.id, ...body });

  it('creates an SP with the documented defaults (201) and lists it by workspace', async () => {
    const sp = entityId();
    const res = await create({ name: 'Wiki', sp_entity_id: sp, acs_url: 'https://wiki.example.com/saml/acs' }).expect(201);
    expect(res.body).toMatchObject({
      workspace_id: ws.id,
      name: 'Wiki',
      sp_entity_id: sp,
      acs_url: 'https://wiki.example.com/saml/acs',
      name_id_format: EMAIL_FORMAT,
      name_id_attribute: 'email',
      sign_assertions: true,
      is_active: true,
      attribute_mapping: {},
      sp_cert_pem: null,
      default_relay_state: null,
    });
    const list = await t.http().get(`/developer/saml/sps/?workspace_id=${ws.id}`).set(dev.auth).expect(200);
    expect(list.body.results.map((s: { id: string }) => s.id)).toContain(res.body.id);
    await t.http().get(`/developer/saml/sps/${res.body.id}/`).set(dev.auth).expect(200);
  });

  it('updates only the fields sent with PUT (200), deletes with 204, and audits each change', async () => {
    const created = (
      await create({ sp_entity_id: entityId(), acs_url: 'https://a.example.com/acs', attribute_mapping: { mail: 'email' } }).expect(201)
    ).body;
    const updated = await t
      .http()
      .put(`/developer/saml/sps/${created.id}/`)
      .set(dev.auth)
      .send({ is_active: false, attribute_mapping: { displayName: 'display_name' } })
      .expect(200);
    expect(updated.body).toMatchObject({
      is_active: false,
      attribute_mapping: { displayName: 'display_name' },
      acs_url: 'https://a.example.com/acs',
      name: created.sp_entity_id,
    });
    await t.http().delete(`/developer/saml/sps/${created.id}/`).set(dev.auth).expect(204);
    await t.http().get(`/developer/saml/sps/${created.id}/`).set(dev.auth).expect(404);
    const audit = await t.http().get(`/developer/audit/?workspace_id=${ws.id}&target_id=${created.id}`).set(dev.auth).expect(200);
    expect(audit.body.results.map((e: { event_type: string }) => e.event_type)).toEqual([
      'saml_sp_delete',
      'saml_sp_update',
      'saml_sp_create',
    ]);
  });

  it('answers 409 when the sp_entity_id is registered anywhere in the service', async () => {
    const sp = entityId();
    await create({ sp_entity_id: sp, acs_url: 'https://a.example.com/acs' }).expect(201);
    const other = await aDeveloper(t);
    const otherWs = await aWorkspace(t, other);
    const res = await t
      .http()
      .post('/developer/saml/sps/')
      .set(other.auth)
      .send({ workspace_id: otherWs.id, sp_entity_id: sp, acs_url: 'https://b.example.com/acs' })
      .expect(409);
    expect(res.body.error).toBe('sp_entity_id_taken');
  });

  it.each([
    ['an http ACS URL off localhost', { acs_url: 'http://sp.example.com/acs' }, 'acs_url'],
    ['a relative ACS URL', { acs_url: '/acs' }, 'acs_url'],
    [
      'an attribute mapped to an unknown field',
      { acs_url: 'https://sp.example.com/acs', attribute_mapping: { role: 'password_hash' } },
      'attribute_mapping',
    ],
    ['an unsupported NameID format', { acs_url: 'https://sp.example.com/acs', name_id_format: 'urn:x' }, 'name_id_format'],
    ['an email NameID taken from the id', { acs_url: 'https://sp.example.com/acs', name_id_attribute: 'id' }, 'name_id_attribute'],
    ['a certificate that does not parse', { acs_url: 'https://sp.example.com/acs', sp_cert_pem: 'nope' }, 'sp_cert_pem'],
    ['an unknown field', { acs_url: 'https://sp.example.com/acs', colour: 'red' }, 'colour'],
  ])('refuses %s with 400', async (_label, body, field) => {
    const res = await create({ sp_entity_id: entityId(), ...body }).expect(400);
    expect(res.body.error).toBe('validation_failed');
    expect(Object.keys(res.body.details)).toContain(field);
  });

  it('allows http ACS URLs on localhost for development', async () => {
    await create({ sp_entity_id: entityId(), acs_url: 'http://localhost:4000/acs' }).expect(201);
  });

  it('fills entity id, ACS URL and certificate from imported SP metadata', async () => {
    const sp = entityId();
    const { certPem } = generateDevKeyPair('imported sp');
    const body = certPem.replace(/-----[A-Z ]+-----|\s/g, '');
    const metadata = `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${sp}"><md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${body}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor><md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://imported.example.com/acs" index="0" isDefault="true"/></md:SPSSODescriptor></md:EntityDescriptor>`;
    const res = await create({ name: 'Imported', metadata_xml: metadata }).expect(201);
    expect(res.body).toMatchObject({ sp_entity_id: sp, acs_url: 'https://imported.example.com/acs' });
    expect(res.body.sp_cert_pem.replace(/-----[A-Z ]+-----|\s/g, '')).toBe(body);
    const doctype = await create({ metadata_xml: `<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>${metadata}` }).expect(400);
    expect(doctype.body.details).toHaveProperty('metadata_xml');
  });

  it('hides SPs of other workspaces (404) and checks membership on list (404)', async () => {
    const created = (await create({ sp_entity_id: entityId(), acs_url: 'https://a.example.com/acs' }).expect(201)).body;
    const stranger = await aDeveloper(t);
    await t.http().get(`/developer/saml/sps/${created.id}/`).set(stranger.auth).expect(404);
    await t.http().put(`/developer/saml/sps/${created.id}/`).set(stranger.auth).send({ name: 'x' }).expect(404);
    await t.http().delete(`/developer/saml/sps/${created.id}/`).set(stranger.auth).expect(404);
    await t.http().get(`/developer/saml/sps/?workspace_id=${ws.id}`).set(stranger.auth).expect(404);
    await t.http().get('/developer/saml/sps/not-a-uuid/').set(dev.auth).expect(404);
    await t.http().get(`/developer/saml/sps/?workspace_id=${ws.id}`).expect(401);
  });

  it('refuses to move an SP to another workspace', async () => {
    const created = (await create({ sp_entity_id: entityId(), acs_url: 'https://a.example.com/acs' }).expect(201)).body;
    const otherWs = await aWorkspace(t, dev);
    await t.http().put(`/developer/saml/sps/${created.id}/`).set(dev.auth).send({ workspace_id: otherWs.id }).expect(400);
  });
});
