import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, TestApp } from '../support/app';
import { aDeveloper, aWorkspace, TestDeveloper } from '../support/factories';
import { idpKeys, UpstreamSamlIdp } from './support/upstream-saml-idp';

/**
 * A SAML connection created from the IdP's metadata, pasted (metadata_xml) or at a URL (metadata_url,
 * fetched once through the outbound guard): the connection holds the entity id, SSO URL and signing
 * certificate the metadata names. Unusable metadata is a 400 naming the field, and nothing is written.
 */
describe('SSO connections: SAML settings from the IdP metadata', () => {
  let t: TestApp;
  let dev: TestDeveloper;
  let server: Server;
  let metadataBase: string;
  const idp = new UpstreamSamlIdp();
  const served = new Map<string, string>();

  beforeAll(async () => {
    // A metadata URL on loopback, as in development (the guard refuses private targets otherwise).
    t = await createTestApp({ OAUTH_JWKS_ALLOW_PRIVATE_TARGETS: 'true' });
    dev = await aDeveloper(t);
    server = createServer((req, res) => {
      const body = served.get(req.url ?? '');
      res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/samlmetadata+xml' }).end(body ?? 'not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    metadataBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  const create = (workspaceId: string, saml: Record<string, unknown>) =>
    t
      .http()
      .post('/developer/external-providers/')
      .set(dev.auth)
      .send({ workspace_id: workspaceId, name: 'Acme SAML', protocol: 'saml', saml });
  const list = async (workspaceId: string) =>
    (await t.http().get('/developer/external-providers/').query({ workspace_id: workspaceId }).set(dev.auth).expect(200)).body.results;

  it('reads the entity id, SSO URL and certificate from pasted metadata', async () => {
    const ws = await aWorkspace(t, dev);
    const res = await create(ws.id, { metadata_xml: idp.metadataXml() });
    expect(res.status).toBe(201);
    expect(res.body.saml).toMatchObject({
      idp_entity_id: idp.entityId,
      idp_sso_url: idp.ssoUrl,
      idp_certificates: [expect.stringContaining('-----BEGIN CERTIFICATE-----')],
    });
    expect(res.body.saml).not.toHaveProperty('metadata_xml');
    const cert = (pem: string) => pem.replace(/-----[^-]+-----|\s/g, '');
    expect(cert(res.body.saml.idp_certificates[0])).toBe(cert(idp.keys.certPem));
  });

  it('fetches the metadata once from its URL, and an update from new metadata replaces the certificate', async () => {
    const ws = await aWorkspace(t, dev);
    served.set('/idp/metadata', idp.metadataXml());
    const res = await create(ws.id, { metadata_url: `${metadataBase}/idp/metadata` }).expect(201);
    expect(res.body.saml).toMatchObject({ idp_entity_id: idp.entityId, idp_sso_url: idp.ssoUrl });

    const rolled = new UpstreamSamlIdp(idp.entityId, idp.ssoUrl, idpKeys(true));
    const updated = await t
      .http()
      .patch(`/developer/external-providers/${res.body.id}/`)
      .set(dev.auth)
      .send({ saml: { metadata_xml: rolled.metadataXml() } })
      .expect(200);
    const cert = (pem: string) => pem.replace(/-----[^-]+-----|\s/g, '');
    expect(updated.body.saml.idp_certificates.map(cert)).toEqual([cert(rolled.keys.certPem)]);
  });

  it('refuses unusable metadata with a 400 naming the field, and writes nothing', async () => {
    const ws = await aWorkspace(t, dev);
    const dtd = `<!DOCTYPE x [<!ENTITY e "boom">]>${idp.metadataXml()}`;
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ metadata_xml: dtd }, 'saml.metadata_xml', /DTD/],
      [{ metadata_xml: '<html>not metadata</html>' }, 'saml.metadata_xml', /./],
      [{ metadata_url: `${metadataBase}/missing` }, 'saml.metadata_url', /HTTP 404/],
      [{ metadata_url: 'http://127.0.0.1:9/metadata' }, 'saml.metadata_url', /could not be fetched/],
      [{ metadata_xml: idp.metadataXml(), metadata_url: `${metadataBase}/idp/metadata` }, 'saml.metadata_xml', /not both/],
      [{ metadata_xml: idp.metadataXml(), idp_entity_id: 'x' }, 'saml.metadata_xml', /one or the other/],
    ];
    for (const [saml, field, message] of cases) {
      const res = await create(ws.id, saml);
      expect({ saml: Object.keys(saml), status: res.status, error: res.body.error }).toEqual({
        saml: Object.keys(saml),
        status: 400,
        error: 'validation_failed',
      });
      expect(res.body.details[field].join(' ')).toMatch(message);
    }
    // Metadata over 256 KiB does not fit the request body limit: a 413, as any oversized body.
    const huge = await create(ws.id, { metadata_xml: 'x'.repeat(262_145) });
    expect({ status: huge.status, error: huge.body.error }).toEqual({ status: 413, error: 'payload_too_large' });
    expect(await list(ws.id)).toEqual([]);
  });
});
