import { generateDevKeyPair } from '../../src/saml/idp/dev-keypair';
import { createTestApp, TestApp } from '../support/app';
import { spawnApp } from '../support/app-process';
import { samlEnv, testIdpKeyPair } from './support/saml-env';

describe('GET /saml/metadata/', () => {
  describe('when the IdP is configured', () => {
    let t: TestApp;
    beforeAll(async () => (t = await createTestApp(samlEnv())));
    afterAll(() => t.close());

    it('serves the EntityDescriptor with the signing certificate as a bare base64 body', async () => {
      const res = await t.http().get('/saml/metadata/').expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/samlmetadata\+xml/);
      const body = res.text;
      expect(body).toContain('entityID="https://idp.e2e.test/saml/metadata/"');
      expect(body).toContain('WantAuthnRequestsSigned="false"');
      expect(body).toContain('Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.e2e.test/saml/sso/"');
      expect(body).toContain('Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://idp.e2e.test/saml/sso/"');
      expect(body).toContain(testIdpKeyPair().certPem.replace(/-----[A-Z ]+-----|\s/g, ''));
      expect(body).not.toContain('BEGIN CERTIFICATE');
    });
  });

  describe('when an IdP variable is missing', () => {
    let t: TestApp;
    beforeAll(async () => (t = await createTestApp({ ...samlEnv(), SAML_IDP_KEY_PEM: '' })));
    afterAll(() => t.close());

    it('answers 503 and names the missing variable', async () => {
      const res = await t.http().get('/saml/metadata/').expect(503);
      expect(res.body.error).toBe('not_configured');
      expect(res.body.message).toMatch(/SAML_IDP_KEY_PEM/);
    });
  });
});

describe('boot with an unusable IdP key', () => {
  it('refuses to start and says the key does not match the certificate', async () => {
    const other = generateDevKeyPair('not the idp');
    const app = await spawnApp({ ...samlEnv(), SAML_IDP_KEY_PEM: other.keyPem }, { waitForLive: false });
    const code = await app.exited;
    expect(code).not.toBe(0);
    expect(app.logs.join('\n')).toMatch(/SAML_IDP_KEY_PEM does not match the public key of SAML_IDP_CERT_PEM/);
  }, 90_000);
});
