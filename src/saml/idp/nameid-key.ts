import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { SecretBox } from '../../common/crypto/secret-box';
import { IdpConfigError } from './idp-settings';

/** What the deployment keeps about its NameID key (saml_nameid_keys). */
export interface NameIdKeyRecord {
  /** The generated key, sealed; null when the key is SAML_NAMEID_SECRET's. */
  sealedKey: string | null;
  checkValue: string;
  createdAt: Date;
}

export interface NameIdKeyStore {
  find(): Promise<NameIdKeyRecord | null>;
  /** Inserts unless a record exists; returns the record in force (the first writer's). */
  claim(candidate: Omit<NameIdKeyRecord, 'createdAt'>): Promise<NameIdKeyRecord>;
}

const CHECK_LABEL = 'identity-service saml nameid key check v1';
const CHANGE_HELP = 'see "SAML_NAMEID_SECRET" in docs/operations.md before changing it on purpose';

/** HMAC-SHA256 of a fixed label under the key: equal for the same key, and says nothing about it. */
export function nameIdKeyCheck(secret: string): string {
  return createHmac('sha256', Buffer.from(secret.trim(), 'utf8')).update(CHECK_LABEL).digest('base64url');
}

function sameCheck(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The deployment's NameID key (decision 0207). SAML_NAMEID_SECRET, when set, wins, but only if it is
 * the key the deployment's NameIDs were derived from: its check value is recorded the first time
 * and a different key is refused (it would give every user a new identity at every SP). Unset, a
 * key is generated once, sealed with the secret box and kept in the database: two instances that
 * boot at once each propose one, the first insert wins and both use it.
 */
export async function resolveNameIdKey(explicit: string | undefined, store: NameIdKeyStore, box: SecretBox): Promise<string> {
  const existing = await store.find();
  if (explicit?.trim()) {
    const check = nameIdKeyCheck(explicit);
    const record = existing ?? (await store.claim({ sealedKey: null, checkValue: check }));
    if (!sameCheck(record.checkValue, check)) {
      throw new IdpConfigError(
        `SAML_NAMEID_SECRET is not the key this deployment's NameIDs have been derived from since ${record.createdAt.toISOString()}: ` +
          `with it every persistent NameID and SessionIndex would change and service providers would see new users. ` +
          (record.sealedKey !== null
            ? 'Unset SAML_NAMEID_SECRET to keep using the key generated and kept in the database'
            : 'Restore the previous value') +
          `; ${CHANGE_HELP}.`,
      );
    }
    return explicit.trim();
  }
  let record = existing;
  if (!record) {
    const generated = randomBytes(32).toString('base64url');
    record = await store.claim({ sealedKey: box.encrypt(generated), checkValue: nameIdKeyCheck(generated) });
  }
  if (record.sealedKey === null) {
    throw new IdpConfigError(
      `SAML_NAMEID_SECRET is unset, but this deployment's NameIDs have been derived from its value since ${record.createdAt.toISOString()}: ` +
        `set it again (a generated key would change every persistent NameID and SessionIndex); ${CHANGE_HELP}.`,
    );
  }
  let secret: string;
  try {
    secret = box.decrypt(record.sealedKey);
  } catch {
    const kid = record.sealedKey.split(':')[1] ?? '?';
    throw new IdpConfigError(
      `the NameID key kept in the database is sealed with key "${kid}", which SECRETS_ENCRYPTION_KEY cannot open: ` +
        'keep that key in the keyring (after the current one)',
    );
  }
  if (!sameCheck(nameIdKeyCheck(secret), record.checkValue)) {
    throw new IdpConfigError('the NameID key kept in the database does not match its check value (saml_nameid_keys was altered)');
  }
  return secret;
}
