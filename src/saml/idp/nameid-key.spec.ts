import { randomBytes } from 'node:crypto';
import { SecretBox } from '../../common/crypto/secret-box';
import { NameIdKeyRecord, NameIdKeyStore, nameIdKeyCheck, resolveNameIdKey } from './nameid-key';

/** saml_nameid_keys in memory: claim() is INSERT … ON CONFLICT DO NOTHING, then a read. */
function memoryStore(): NameIdKeyStore & { row: NameIdKeyRecord | null; claims: number } {
  const store = {
    row: null as NameIdKeyRecord | null,
    claims: 0,
    find: async () => store.row,
    claim: async (candidate: Omit<NameIdKeyRecord, 'createdAt'>) => {
      store.claims++;
      // Yield first, as a round trip would: lets two boots interleave.
      await new Promise((resolve) => setImmediate(resolve));
      store.row ??= { ...candidate, createdAt: new Date('2026-01-02T03:04:05Z') };
      return store.row;
    },
  };
  return store;
}

const box = new SecretBox(`k1:${randomBytes(32).toString('base64')}`);
const SECRET = 'an-explicit-nameid-secret-0123456789abcdef';

describe('the deployment NameID key', () => {
  it('is generated once, sealed, and the same for every instance, including two that boot at once', async () => {
    const store = memoryStore();
    const [a, b] = await Promise.all([resolveNameIdKey(undefined, store, box), resolveNameIdKey(undefined, store, box)]);
    expect(store.claims).toBe(2);
    expect(a).toBe(b);
    expect(a.length).toBeGreaterThanOrEqual(32);
    expect(store.row?.sealedKey).not.toContain(a);
    expect(box.decrypt(store.row!.sealedKey!)).toBe(a);
    // A restart reads it back.
    await expect(resolveNameIdKey(undefined, store, box)).resolves.toBe(a);
  });

  it('takes SAML_NAMEID_SECRET when set, recording only its check value', async () => {
    const store = memoryStore();
    await expect(resolveNameIdKey(SECRET, store, box)).resolves.toBe(SECRET);
    expect(store.row).toMatchObject({ sealedKey: null, checkValue: nameIdKeyCheck(SECRET) });
    expect(JSON.stringify(store.row)).not.toContain(SECRET);
    await expect(resolveNameIdKey(SECRET, store, box)).resolves.toBe(SECRET);
  });

  it('accepts SAML_NAMEID_SECRET set to the generated key, and refuses any other', async () => {
    const store = memoryStore();
    const generated = await resolveNameIdKey(undefined, store, box);
    await expect(resolveNameIdKey(generated, store, box)).resolves.toBe(generated);
    await expect(resolveNameIdKey(SECRET, store, box)).rejects.toThrow(/would change.*Unset SAML_NAMEID_SECRET/);
  });

  it('refuses a changed SAML_NAMEID_SECRET, and an unset one after it was set', async () => {
    const store = memoryStore();
    await resolveNameIdKey(SECRET, store, box);
    await expect(resolveNameIdKey(`${SECRET}-new`, store, box)).rejects.toThrow(
      /not the key this deployment's NameIDs have been derived from since 2026-01-02T03:04:05.000Z.*Restore the previous value/,
    );
    await expect(resolveNameIdKey(undefined, store, box)).rejects.toThrow(/SAML_NAMEID_SECRET is unset.*set it again/);
  });

  it('refuses to start when the secret box cannot open the stored key, or the key does not match its check', async () => {
    const store = memoryStore();
    await resolveNameIdKey(undefined, store, box);
    const otherBox = new SecretBox(`k2:${randomBytes(32).toString('base64')}`);
    await expect(resolveNameIdKey(undefined, store, otherBox)).rejects.toThrow(/sealed with key "k1".*cannot open/);
    store.row = { ...store.row!, sealedKey: box.encrypt('x'.repeat(43)) };
    await expect(resolveNameIdKey(undefined, store, box)).rejects.toThrow(/does not match its check value/);
  });
});
