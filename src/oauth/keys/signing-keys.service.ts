import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { createPrivateKey, createPublicKey, generateKeyPairSync, KeyObject, randomBytes } from 'node:crypto';
import type { JWK } from 'jose';
import { Clock } from '../../common/clock';
import { SecretBox } from '../../common/crypto/secret-box';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { UnitOfWork } from '../../database/unit-of-work';
import { SigningKeysRepository } from './signing-keys.repository';

/** Algorithms this server signs with. Access tokens use EdDSA (Ed25519); issue 25 adds RS256/ES256 for ID tokens. */
export type SigningAlg = 'EdDSA' | 'ES256' | 'RS256';

export interface SigningKey {
  kid: string;
  alg: SigningAlg;
  privateKey: KeyObject;
}

interface LoadedKey {
  kid: string;
  alg: SigningAlg;
  publicKey: KeyObject;
  publicJwk: JWK;
  /** Null when SECRETS_ENCRYPTION_KEY cannot open it (a key of another keyring): it still verifies, never signs. */
  privateKey: KeyObject | null;
  retired: boolean;
}

/** A retired key stays published this long: longer than any token it can have signed lives (6 h). */
const RETIRED_KEYS_PUBLISHED_MS = 24 * 60 * 60 * 1000;
/** An unknown kid reloads the key set at most this often (a key another instance just created). */
const RELOAD_COOLDOWN_MS = 1_000;

/**
 * The authorization server's signing keys (decision 0901): generated once per deployment, stored
 * with the private half sealed by SECRETS_ENCRYPTION_KEY, loaded into memory at boot so that
 * signing and verifying never touch the database. An instance that meets a kid it does not know
 * reloads the set (throttled).
 */
@Injectable()
export class SigningKeysService implements OnModuleInit {
  private readonly logger = new Logger('SigningKeys');
  private readonly box: SecretBox;
  private keys = new Map<string, LoadedKey>();
  private lastReload = 0;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly repository: SigningKeysRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {
    this.box = new SecretBox(config.SECRETS_ENCRYPTION_KEY!);
  }

  async onModuleInit(): Promise<void> {
    await this.ensureKey('EdDSA');
  }

  /** The key new tokens of this algorithm are signed with. */
  signingKey(alg: SigningAlg): SigningKey {
    let newest: LoadedKey | undefined;
    for (const key of this.keys.values()) if (key.alg === alg && !key.retired && key.privateKey) newest = key;
    if (!newest?.privateKey) throw new Error(`no ${alg} signing key loaded`);
    return { kid: newest.kid, alg: newest.alg, privateKey: newest.privateKey };
  }

  /** The public key of a kid, reloading the set once if another instance created it since boot. */
  async verificationKey(kid: string): Promise<{ alg: SigningAlg; key: KeyObject } | undefined> {
    let key = this.keys.get(kid);
    if (!key && this.clock.now().getTime() - this.lastReload > RELOAD_COOLDOWN_MS) {
      await this.reload();
      key = this.keys.get(kid);
    }
    return key && { alg: key.alg, key: key.publicKey };
  }

  /** The public keys, as RFC 7517 JWK Set. */
  jwks(): { keys: JWK[] } {
    return { keys: [...this.keys.values()].map((k) => k.publicJwk) };
  }

  /**
   * Makes sure an active key of `alg` that this instance can open exists (creating it once across
   * instances), then loads the set.
   */
  async ensureKey(alg: SigningAlg): Promise<void> {
    await this.uow.run(async (tx) => {
      await this.repository.lockForCreation(tx);
      const active = await this.repository.findActive(tx, alg);
      if (active.some((row) => this.open(row.kid, row.privateKey))) return;
      const kid = `${alg.toLowerCase()}-${randomBytes(8).toString('hex')}`;
      const { publicKey, privateKey } = generate(alg);
      const publicJwk = jwkStrings({ ...publicKey.export({ format: 'jwk' }), kid, alg, use: 'sig' });
      const sealed = this.box.encrypt(privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
      await this.repository.insert(tx, { kid, alg, publicJwk, privateKey: sealed });
      this.logger.log(`created ${alg} signing key ${kid}`);
    });
    await this.reload();
  }

  /** The private key, or null when the keyring cannot open it (logged once per load). */
  private open(kid: string, sealed: string): KeyObject | null {
    try {
      return createPrivateKey(this.box.decrypt(sealed));
    } catch {
      this.logger.warn(`signing key ${kid} cannot be opened with SECRETS_ENCRYPTION_KEY; it only verifies`);
      return null;
    }
  }

  private async reload(): Promise<void> {
    this.lastReload = this.clock.now().getTime();
    const rows = await this.repository.listPublished(new Date(this.lastReload - RETIRED_KEYS_PUBLISHED_MS));
    const keys = new Map<string, LoadedKey>();
    for (const row of rows) {
      const publicJwk: JWK = row.publicJwk;
      keys.set(row.kid, {
        kid: row.kid,
        alg: row.alg as SigningAlg,
        publicJwk,
        publicKey: createPublicKey({ key: row.publicJwk, format: 'jwk' }),
        privateKey: this.open(row.kid, row.privateKey),
        retired: row.retiredAt !== null,
      });
    }
    this.keys = keys;
  }
}

/** The string members of an exported public JWK (all of them, for the key types generated here). */
function jwkStrings(jwk: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(jwk).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

function generate(alg: SigningAlg): { publicKey: KeyObject; privateKey: KeyObject } {
  switch (alg) {
    case 'EdDSA':
      return generateKeyPairSync('ed25519');
    case 'ES256':
      return generateKeyPairSync('ec', { namedCurve: 'P-256' });
    case 'RS256':
      return generateKeyPairSync('rsa', { modulusLength: 2048 });
  }
}
