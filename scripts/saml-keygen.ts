/**
 * npm run saml:keygen [-- --out <dir>] [--days N] [--cn "Name"]
 * Writes a long-lived self-signed RSA-2048 SHA-256 signing pair for the SAML IdP
 * (development only) and prints the environment variables to set.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { generateDevKeyPair } from '../src/saml/idp/dev-keypair';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const outDir = resolve(arg('out', 'data/saml'));
const days = Number(arg('days', '3650'));
const { keyPem, certPem } = generateDevKeyPair(arg('cn', 'identity-service SAML IdP (development)'), days);
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'idp-key.pem'), keyPem, { mode: 0o600 });
writeFileSync(join(outDir, 'idp-cert.pem'), certPem);

const oneLine = (pem: string) => JSON.stringify(pem.trim()).slice(1, -1); // PEM with literal \n, accepted by the loader
const base = process.env.PUBLIC_BASE_URL ?? 'http://localhost:3000';
process.stdout.write(
  [
    `# Wrote ${join(outDir, 'idp-key.pem')} (keep private) and ${join(outDir, 'idp-cert.pem')}, valid ${days} days.`,
    '# Add to .env (development only; production keys come from your secret store):',
    `SAML_IDP_ENTITY_ID=${base}/saml/metadata/`,
    `SAML_IDP_SSO_URL=${base}/saml/sso/`,
    `SAML_IDP_CERT_PEM="${oneLine(certPem)}"`,
    `SAML_IDP_KEY_PEM="${oneLine(keyPem)}"`,
    '# optional: SAML_IDP_LOGIN_URL=/auth/login/',
    '',
  ].join('\n'),
);
