import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM with a keyring so keys can rotate: the first key encrypts, every
 * key decrypts. Ciphertext format: "v1:<kid>:<iv b64url>:<tag b64url>:<data b64url>".
 */
export class SecretBox {
  private readonly keys = new Map<string, Buffer>();
  private readonly currentKid: string;

  constructor(keyring: string) {
    const entries = keyring
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const entry of entries) {
      const sep = entry.indexOf(':');
      if (sep <= 0) throw new Error('SECRETS_ENCRYPTION_KEY entries must look like kid:base64key');
      const key = Buffer.from(entry.slice(sep + 1), 'base64');
      if (key.length !== 32) throw new Error('SECRETS_ENCRYPTION_KEY keys must be 32 bytes (base64)');
      this.keys.set(entry.slice(0, sep), key);
    }
    if (entries.length === 0) throw new Error('SECRETS_ENCRYPTION_KEY is empty');
    this.currentKid = entries[0].slice(0, entries[0].indexOf(':'));
  }

  get keyId(): string {
    return this.currentKid;
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentKid)!, iv);
    cipher.setAAD(Buffer.from(this.currentKid));
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url'));
    return ['v1', this.currentKid, ...parts].join(':');
  }

  decrypt(sealed: string): string {
    const [version, kid, iv, tag, data] = sealed.split(':');
    const key = this.keys.get(kid);
    if (version !== 'v1' || !key) throw new Error(`no key for secret (kid ${kid})`);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(kid));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}
