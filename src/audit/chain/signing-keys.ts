import { Inject, Injectable } from '@nestjs/common';
import { createPrivateKey, createPublicKey, KeyObject, sign } from 'node:crypto';
import { APP_CONFIG, AppConfig, ConfigError } from '../../config/config';
import { PublicKeyView } from './chain';

interface SigningKey {
  id: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

/**
 * The checkpoint signing keyring (AUDIT_SIGNING_KEYS, "kid:base64 PKCS#8 DER Ed25519", comma
 * separated): the first key signs new checkpoints; every key listed stays published so that
 * checkpoints signed before a rotation still verify.
 */
@Injectable()
export class AuditSigningKeys {
  private readonly keys: SigningKey[];

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.keys = parseKeyring(config.AUDIT_SIGNING_KEYS ?? '');
  }

  get activeKeyId(): string {
    return this.keys[0].id;
  }

  /** Base64 Ed25519 signature with the active key. */
  sign(message: Buffer): { keyId: string; signature: string } {
    const key = this.keys[0];
    return { keyId: key.id, signature: sign(null, message, key.privateKey).toString('base64') };
  }

  publicKeys(): PublicKeyView[] {
    return this.keys.map((k, i) => ({
      key_id: k.id,
      algorithm: 'Ed25519',
      public_key: k.publicKey.export({ format: 'pem', type: 'spki' }).toString(),
      status: i === 0 ? 'active' : 'retired',
    }));
  }
}

function parseKeyring(value: string): SigningKey[] {
  const keys = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const colon = entry.indexOf(':');
      if (colon <= 0) throw new ConfigError('AUDIT_SIGNING_KEYS: each entry is "kid:base64-pkcs8-der"');
      const id = entry.slice(0, colon);
      let privateKey: KeyObject;
      try {
        privateKey = createPrivateKey({ key: Buffer.from(entry.slice(colon + 1), 'base64'), format: 'der', type: 'pkcs8' });
      } catch {
        throw new ConfigError(`AUDIT_SIGNING_KEYS: key ${id} is not a base64 PKCS#8 DER private key`);
      }
      if (privateKey.asymmetricKeyType !== 'ed25519') throw new ConfigError(`AUDIT_SIGNING_KEYS: key ${id} is not Ed25519`);
      return { id, privateKey, publicKey: createPublicKey(privateKey) };
    });
  if (keys.length === 0) throw new ConfigError('AUDIT_SIGNING_KEYS: no key given');
  return keys;
}
