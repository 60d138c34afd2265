import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface DevKeyPair {
  keyPem: string;
  certPem: string;
}

/**
 * A self-signed RSA-2048 / SHA-256 signing pair for development and tests.
 * Node's crypto makes the key; Node cannot issue certificates and no X.509
 * builder is a dependency, so OpenSSL (present wherever Node is built with it,
 * and in the Debian images) signs the certificate over that key.
 */
export function generateDevKeyPair(commonName = 'identity-service SAML IdP (development)', days = 3650): DevKeyPair {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const dir = mkdtempSync(join(tmpdir(), 'saml-keygen-'));
  try {
    const keyFile = join(dir, 'key.pem');
    writeFileSync(keyFile, keyPem, { mode: 0o600 });
    const certPem = execFileSync(
      'openssl',
      ['req', '-x509', '-new', '-key', keyFile, '-sha256', '-days', String(days), '-subj', `/CN=${commonName.replace(/[/=]/g, ' ')}`],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    if (!new X509Certificate(certPem).checkPrivateKey(privateKey)) throw new Error('openssl produced a certificate for another key');
    return { keyPem, certPem };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
