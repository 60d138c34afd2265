import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { generateDevKeyPair } from './dev-keypair';
import { resolveIdpState } from './idp-settings';

describe('development signing pair (npm run saml:keygen)', () => {
  const pair = generateDevKeyPair('keygen-test', 3650);
  const cert = new X509Certificate(pair.certPem);

  it('is a self-signed RSA-2048 certificate signed with SHA-256, valid for about ten years', () => {
    expect(cert.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(cert.verify(cert.publicKey)).toBe(true);
    const text = execFileSync('openssl', ['x509', '-noout', '-text'], { input: pair.certPem, encoding: 'utf8' });
    expect(text).toMatch(/Signature Algorithm: sha256WithRSAEncryption/);
    const years = (new Date(cert.validTo).getTime() - Date.now()) / (365.25 * 86_400_000);
    expect(years).toBeGreaterThan(9.9);
  });

  it('is accepted by the IdP settings loader', () => {
    const state = resolveIdpState({
      SAML_IDP_ENTITY_ID: 'http://localhost:3000/saml/metadata/',
      SAML_IDP_SSO_URL: 'http://localhost:3000/saml/sso/',
      SAML_IDP_CERT_PEM: pair.certPem,
      SAML_IDP_KEY_PEM: pair.keyPem,
      SAML_NAMEID_SECRET: 'x'.repeat(32),
    });
    expect(state.configured).toBe(true);
  });
});
