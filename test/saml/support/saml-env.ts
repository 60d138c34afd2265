import { generateDevKeyPair, DevKeyPair } from '../../../src/saml/idp/dev-keypair';

let cached: DevKeyPair | undefined;

/** One signing pair per test process (generation takes ~100 ms). */
export function testIdpKeyPair(): DevKeyPair {
  return (cached ??= generateDevKeyPair('e2e idp'));
}

/** IdP variables for an app listening at baseUrl (the test app learns its port first). */
export function samlEnv(extra: Record<string, string> = {}): Record<string, string> {
  const pair = testIdpKeyPair();
  return {
    SAML_IDP_ENTITY_ID: 'https://idp.e2e.test/saml/metadata/',
    SAML_IDP_SSO_URL: 'https://idp.e2e.test/saml/sso/',
    SAML_IDP_CERT_PEM: pair.certPem,
    SAML_IDP_KEY_PEM: pair.keyPem,
    // Fixed, so that several instances (and a restarted one) derive the same pairwise identifiers.
    SAML_NAMEID_SECRET: 'e2e-pairwise-secret-0123456789abcdefghij',
    // The SSO limit has its own suite (saml-sso-abuse); flows here run many requests from one address.
    RATE_LIMIT_SAML_SSO_PER_MINUTE: '100000',
    ...extra,
  };
}
