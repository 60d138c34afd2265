import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box';

const key = () => randomBytes(32).toString('base64');

describe('SecretBox', () => {
  it('decrypts what it encrypted and never repeats a ciphertext', () => {
    const box = new SecretBox(`k1:${key()}`);
    const a = box.encrypt('s3cret-Pass_word');
    const b = box.encrypt('s3cret-Pass_word');
    expect(a).not.toEqual(b);
    expect(a.startsWith('v1:k1:')).toBe(true);
    expect(box.decrypt(a)).toBe('s3cret-Pass_word');
  });

  it('still decrypts values made under an older key after rotation', () => {
    const oldKey = key();
    const sealedOld = new SecretBox(`old:${oldKey}`).encrypt('pw');
    const rotated = new SecretBox(`new:${key()},old:${oldKey}`);
    expect(rotated.keyId).toBe('new');
    expect(rotated.decrypt(sealedOld)).toBe('pw');
    expect(rotated.encrypt('pw').split(':')[1]).toBe('new');
  });

  it('refuses a value whose key left the keyring, and a tampered ciphertext', () => {
    const sealed = new SecretBox(`gone:${key()}`).encrypt('pw');
    expect(() => new SecretBox(`k2:${key()}`).decrypt(sealed)).toThrow(/no key/);
    const box = new SecretBox(`k:${key()}`);
    const parts = box.encrypt('pw').split(':');
    parts[4] = Buffer.from('xx').toString('base64url');
    expect(() => box.decrypt(parts.join(':'))).toThrow();
  });

  it('rejects keys of the wrong size and empty keyrings', () => {
    expect(() => new SecretBox('k:' + randomBytes(16).toString('base64'))).toThrow(/32 bytes/);
    expect(() => new SecretBox(' , ')).toThrow(/empty/);
  });
});
