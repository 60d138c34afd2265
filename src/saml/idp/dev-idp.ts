import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { generateDevKeyPair } from './dev-keypair';
import { IdpEnv } from './idp-settings';

const REQUIRED = ['SAML_IDP_ENTITY_ID', 'SAML_IDP_SSO_URL', 'SAML_IDP_CERT_PEM', 'SAML_IDP_KEY_PEM'] as const;

export interface DevIdpInput extends IdpEnv {
  NODE_ENV: string;
  DATA_DIR: string;
  PUBLIC_BASE_URL: string;
}

/** Where the development IdP came from, for the boot summary. */
export interface DevIdpOutcome<T extends IdpEnv> {
  /** The configuration as given (every other IdP variable passes through), completed when generated. */
  env: T;
  /** Set when the pair was generated (or reused) under DATA_DIR: the files, for the log. */
  generated?: { keyFile: string; certFile: string; created: boolean };
}

/**
 * Zero-config SAML, like the generated development secrets: outside production, when
 * none of the four IdP variables is set, a signing pair is made once and kept under
 * DATA_DIR/saml/ (so SPs keep trusting it across restarts), and the entity and SSO URLs
 * are this instance's own `/saml/metadata/` and `/saml/sso/` (derived from
 * PUBLIC_BASE_URL on every boot, so they follow a port change). Production, or a partial
 * configuration, is left as it is: the IdP answers 503 naming what is missing.
 */
export function withDevelopmentIdp<T extends DevIdpInput>(config: T): DevIdpOutcome<T> {
  const env = config;
  if (config.NODE_ENV === 'production' || REQUIRED.some((name) => env[name]?.trim())) return { env };
  const dir = resolve(config.DATA_DIR, 'saml');
  const keyFile = join(dir, 'idp-key.pem');
  const certFile = join(dir, 'idp-cert.pem');
  const created = !(existsSync(keyFile) && existsSync(certFile));
  if (created) {
    const pair = generateDevKeyPair();
    mkdirSync(dir, { recursive: true });
    writeFileSync(keyFile, pair.keyPem, { mode: 0o600 });
    writeFileSync(certFile, pair.certPem);
  }
  return {
    env: {
      ...env,
      SAML_IDP_ENTITY_ID: `${config.PUBLIC_BASE_URL}/saml/metadata/`,
      SAML_IDP_SSO_URL: `${config.PUBLIC_BASE_URL}/saml/sso/`,
      SAML_IDP_KEY_PEM: readFileSync(keyFile, 'utf8'),
      SAML_IDP_CERT_PEM: readFileSync(certFile, 'utf8'),
    },
    generated: { keyFile, certFile, created },
  };
}
