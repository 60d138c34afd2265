import { generateKeyPairSync } from 'node:crypto';
import { generateDevKeyPair } from './dev-keypair';
import { buildIdpMetadata } from '../protocol/idp-metadata';
import { completeIdpSettings, IdpConfigError, IdpEnv, resolveIdpSigning, resolveIdpState } from './idp-settings';

const pair = generateDevKeyPair('settings-test');
const other = generateDevKeyPair('settings-test-next');
const base: IdpEnv = {
  SAML_IDP_ENTITY_ID: 'https://idp.example.test/saml/metadata/',
  SAML_IDP_SSO_URL: 'https://idp.example.test/saml/sso/',
  SAML_IDP_CERT_PEM: pair.certPem,
  SAML_IDP_KEY_PEM: pair.keyPem,
  SAML_NAMEID_SECRET: 'a'.repeat(43),
};

describe('IdP settings', () => {
  it('is "not configured" (with the missing names) when any of the four required variables is unset', () => {
    const state = resolveIdpState({ ...base, SAML_IDP_KEY_PEM: '', SAML_IDP_SSO_URL: undefined });
    expect(state.configured).toBe(false);
    if (state.configured) return;
    expect(state.missing).toEqual(['SAML_IDP_SSO_URL', 'SAML_IDP_KEY_PEM']);
    expect(state.message).toMatch(/not configured.*SAML_IDP_SSO_URL, SAML_IDP_KEY_PEM/);
  });

  it('is configured by the four variables alone; a NameID key, when given, must be long', () => {
    const state = resolveIdpSigning({ ...base, SAML_NAMEID_SECRET: undefined });
    expect(state.configured).toBe(true);
    if (!state.configured) return;
    expect(() => completeIdpSettings(state.signing, 'short')).toThrow(/at least 32 characters/);
    expect(completeIdpSettings(state.signing, 'k'.repeat(32)).pairwiseKey.symmetricKeySize).toBe(32);
    expect(() => resolveIdpState({ ...base, SAML_NAMEID_SECRET: 'short' })).toThrow(/at least 32 characters/);
  });

  it('parses the pair once and defaults the login URL', () => {
    const state = resolveIdpState(base);
    if (!state.configured) throw new Error('expected configured');
    expect(state.settings.privateKey.asymmetricKeyType).toBe('rsa');
    expect(state.settings.loginUrl).toBe('/auth/login/');
    expect(state.settings.certBase64).not.toMatch(/BEGIN|\s/);
    expect(Object.isFrozen(state.settings)).toBe(true);
  });

  it('accepts PEM written on one line with literal \\n (as .env files hold it)', () => {
    const oneLine = (pem: string) => pem.trim().replace(/\n/g, '\\n');
    expect(resolveIdpState({ ...base, SAML_IDP_CERT_PEM: oneLine(pair.certPem), SAML_IDP_KEY_PEM: oneLine(pair.keyPem) }).configured).toBe(
      true,
    );
  });

  it('refuses to boot when the key does not match the certificate', () => {
    expect(() => resolveIdpState({ ...base, SAML_IDP_KEY_PEM: other.keyPem })).toThrow(/does not match/);
  });

  it('refuses RSA keys under 2048 bits and non-RSA keys', () => {
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => resolveIdpState({ ...base, SAML_IDP_KEY_PEM: small })).toThrow(/at least 2048/);
    expect(() => resolveIdpState({ ...base, SAML_IDP_KEY_PEM: ec })).toThrow(IdpConfigError);
  });

  it('refuses garbage PEM and a relative SSO URL', () => {
    expect(() => resolveIdpState({ ...base, SAML_IDP_CERT_PEM: 'not a cert' })).toThrow(/not a PEM X.509/);
    expect(() => resolveIdpState({ ...base, SAML_IDP_SSO_URL: '/saml/sso/' })).toThrow(/absolute/);
  });

  it('publishes the next certificate beside the current one for rollover', () => {
    const state = resolveIdpState({ ...base, SAML_IDP_NEXT_CERT_PEM: other.certPem });
    if (!state.configured) throw new Error('expected configured');
    const xml = buildIdpMetadata(state.settings);
    expect(xml.match(/<KeyDescriptor use="signing">/g)).toHaveLength(2);
    expect(xml).toContain(state.settings.certBase64);
    expect(xml).toContain(state.settings.nextCertBase64);
    expect(() => resolveIdpState({ ...base, SAML_IDP_NEXT_CERT_PEM: pair.certPem })).toThrow(/same certificate/);
  });
});
