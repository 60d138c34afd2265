import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DevIdpInput, withDevelopmentIdp } from './dev-idp';
import { resolveIdpState } from './idp-settings';

const base = (dataDir: string, nodeEnv = 'development'): DevIdpInput & { OTHER?: string } => ({
  NODE_ENV: nodeEnv,
  DATA_DIR: dataDir,
  PUBLIC_BASE_URL: 'http://localhost:3000',
  // Generated with the other development secrets before the IdP is resolved (src/config).
  SAML_NAMEID_SECRET: 'n'.repeat(48),
});

describe('zero-config development IdP', () => {
  it('generates a usable pair under DATA_DIR once and reuses it on the next boot', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dev-idp-'));
    const first = withDevelopmentIdp(base(dir));
    expect(first.generated?.created).toBe(true);
    const state = resolveIdpState(first.env);
    expect(state.configured).toBe(true);
    expect(first.env.SAML_IDP_ENTITY_ID).toBe('http://localhost:3000/saml/metadata/');
    expect(first.env.SAML_IDP_SSO_URL).toBe('http://localhost:3000/saml/sso/');
    expect(readFileSync(join(dir, 'saml', 'idp-cert.pem'), 'utf8')).toBe(first.env.SAML_IDP_CERT_PEM);

    const second = withDevelopmentIdp({ ...base(dir), PUBLIC_BASE_URL: 'http://127.0.0.1:4000', OTHER: 'kept' });
    expect(second.env.OTHER).toBe('kept'); // other IdP variables (e.g. a NameID secret) pass through
    expect(second.generated?.created).toBe(false);
    expect(second.env.SAML_IDP_CERT_PEM).toBe(first.env.SAML_IDP_CERT_PEM);
    expect(second.env.SAML_IDP_SSO_URL).toBe('http://127.0.0.1:4000/saml/sso/');
  });

  it('leaves production unconfigured (the IdP answers 503)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dev-idp-'));
    const outcome = withDevelopmentIdp(base(dir, 'production'));
    expect(outcome.generated).toBeUndefined();
    expect(resolveIdpState(outcome.env).configured).toBe(false);
  });

  it('leaves a partial configuration alone, so the error names what is missing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dev-idp-'));
    const outcome = withDevelopmentIdp({ ...base(dir), SAML_IDP_ENTITY_ID: 'https://idp.example/' });
    expect(outcome.generated).toBeUndefined();
    const state = resolveIdpState(outcome.env);
    expect(state.configured ? [] : state.missing).toEqual(['SAML_IDP_SSO_URL', 'SAML_IDP_CERT_PEM', 'SAML_IDP_KEY_PEM']);
  });
});
