import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig, ConfigError } from './config';

const REQUIRED_IN_PRODUCTION = ['AUTH_JWT_SECRET', 'SECRETS_ENCRYPTION_KEY', 'AUDIT_SIGNING_KEYS'] as const;

/**
 * Zero-config start: outside production, secrets that were not given are
 * generated once and kept under DATA_DIR so restarts keep tokens valid.
 * Production must set them explicitly.
 */
export function withGeneratedSecrets(config: AppConfig): AppConfig {
  const missing = REQUIRED_IN_PRODUCTION.filter((k) => !config[k]);
  if (missing.length === 0 && config.SAML_NAMEID_SECRET) return config;
  if (config.NODE_ENV === 'production') {
    if (missing.length > 0) {
      throw new ConfigError(`Invalid environment configuration:\n${missing.map((m) => `  ${m}: required in production`).join('\n')}`);
    }
    // SAML_NAMEID_SECRET stays unset: SAML generates one and keeps it in the database (src/saml/idp/nameid-key.ts).
    return config;
  }
  const file = join(config.DATA_DIR, 'dev-secrets.json');
  let stored: { jwt?: string; encryption?: string; samlNameId?: string; audit?: string } = {};
  if (existsSync(file)) stored = JSON.parse(readFileSync(file, 'utf8')) as typeof stored;
  stored.jwt ??= randomBytes(48).toString('base64url');
  stored.encryption ??= `dev1:${randomBytes(32).toString('base64')}`;
  stored.samlNameId ??= randomBytes(32).toString('base64url');
  stored.audit ??= generateAuditSigningKey(`dev-${randomBytes(4).toString('hex')}`);
  mkdirSync(config.DATA_DIR, { recursive: true });
  writeFileSync(file, JSON.stringify(stored), { mode: 0o600 });
  return Object.freeze({
    ...config,
    AUTH_JWT_SECRET: config.AUTH_JWT_SECRET ?? stored.jwt,
    SECRETS_ENCRYPTION_KEY: config.SECRETS_ENCRYPTION_KEY ?? stored.encryption,
    SAML_NAMEID_SECRET: config.SAML_NAMEID_SECRET ?? stored.samlNameId,
    AUDIT_SIGNING_KEYS: config.AUDIT_SIGNING_KEYS ?? stored.audit,
  });
}

/** One keyring entry "kid:base64 PKCS#8 DER" of a new Ed25519 key (also what `npm run audit:keygen` prints). */
export function generateAuditSigningKey(kid: string): string {
  const { privateKey } = generateKeyPairSync('ed25519');
  return `${kid}:${privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64')}`;
}
