import { generateDevKeyPair } from '../../../src/saml/idp/dev-keypair';
import { type IdpSettings, resolveIdpState } from '../../../src/saml/idp/idp-settings';

/**
 * The settings of an IdP with a key pair of its own (named `keyName` in its certificate), its
 * entity ID and SSO URL under `base`: what the unit tests of the SAML builders and inspectors sign with.
 */
export function aFixtureIdp(keyName: string, base = 'https://idp.example.test', nameIdSecret = 'x'.repeat(32)): IdpSettings {
  const pair = generateDevKeyPair(keyName);
  const state = resolveIdpState({
    SAML_IDP_ENTITY_ID: `${base}/saml/metadata/`,
    SAML_IDP_SSO_URL: `${base}/saml/sso/`,
    SAML_IDP_CERT_PEM: pair.certPem,
    SAML_IDP_KEY_PEM: pair.keyPem,
    SAML_NAMEID_SECRET: nameIdSecret,
  });
  if (!state.configured) throw new Error('fixture IdP not configured');
  return state.settings;
}
