import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { createPrivateKey, createPublicKey, generateKeyPairSync, KeyObject, randomBytes } from 'node:crypto';
import type { JWK } from 'jose';
import { Clock } from '../../common/clock';
import { SecretBox } from '../../common/crypto/secret-box';
import { type Tx, UnitOfWork } from '../../database/unit-of-work';
import { SigningKeysRepository } from './signing-keys.repository';

/** Algorithms this server signs with. Access tokens use EdDSA (Ed25519); the OpenID provider adds RS256/ES256 for ID tokens (decision 0901). */
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
  /** Signs from then on; published before (a rotation's next key). */
  activatesAt: number;
  /** Signs no more from then on (its successor's activation); published a day longer. */
  retiredAt: number | null;
}

/** A retired key stays published this long: longer than any token it can have signed lives (6 h). */
export const RETIRED_KEYS_PUBLISHED_MS = 24 * 60 * 60 * 1000;
/** An unknown kid reloads the key set at most this often (a key another instance just created). */
const RELOAD_COOLDOWN_MS = 1_000;
/** A key signs this long before a rotation replaces it. */
export const SIGNING_KEY_ROTATION_MS = 90 * 24 * 60 * 60 * 1000;
/**
 * A next key is published this long before it signs: longer than the JWKS may be cached (max-age
 * 300 s) plus every instance's periodic reload, so relying parties know it before they meet it.
 */
export const NEXT_KEY_PUBLISHED_AHEAD_MS = 60 * 60 * 1000;
/** Every instance reloads the key set this often (to publish a next key another instance created) and rotates what is due. */
const MAINTENANCE_EVERY_MS = 60_000;
const ALGS: readonly SigningAlg[] = ['EdDSA', 'RS256', 'ES256'];

/**
 * The authorization server's signing keys (decision 0901): generated once per deployment, stored
 * with the private half sealed by SECRETS_ENCRYPTION_KEY, loaded into memory at boot so that
 * signing and verifying never touch the database. An instance that meets a kid it does not know
 * reloads the set (throttled), and every instance reloads it each minute. Keys rotate (decision
 * 0917): the next key is published an hour before it signs, the old one a day after it stopped.
 */
@Injectable()
export class SigningKeysService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('SigningKeys');
  private keys = new Map<string, LoadedKey>();
  private lastReload = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly repository: SigningKeysRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly box: SecretBox,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.ensureKey('EdDSA');
    this.timer = setInterval(
      () => void this.maintain().catch((err: Error) => this.logger.warn(`key maintenance failed: ${err.message}`)),
      MAINTENANCE_EVERY_MS,
    );
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /**
   * The key new tokens of this algorithm are signed with: of the keys active now (activated, not
   * retired) that this instance can open, the one activated last. A next key published ahead does
   * not sign before its time.
   */
  signingKey(alg: SigningAlg): SigningKey {
    const now = this.clock.now().getTime();
    let newest: LoadedKey | undefined;
    for (const key of this.keys.values()) {
      if (key.alg !== alg || !key.privateKey || key.activatesAt > now || (key.retiredAt !== null && key.retiredAt <= now)) continue;
      if (!newest || key.activatesAt >= newest.activatesAt) newest = key;
    }
    if (!newest?.privateKey) throw new Error(`no ${alg} signing key loaded`);
    return { kid: newest.kid, alg: newest.alg, privateKey: newest.privateKey };
  }

  /**
   * What every instance runs each minute: rotates the algorithms whose signing key is due
   * (SIGNING_KEY_ROTATION_MS old, no next key yet), then reloads the set, so a next key any
   * instance created is published here well before it signs.
   */
  async maintain(): Promise<void> {
    const now = this.clock.now().getTime();
    for (const alg of ALGS) {
      const keys = [...this.keys.values()].filter((k) => k.alg === alg && (k.retiredAt === null || k.retiredAt > now));
      const due = keys.length > 0 && keys.every((k) => k.activatesAt <= now - SIGNING_KEY_ROTATION_MS);
      if (due) await this.rotate(alg);
    }
    await this.reload();
  }

  /**
   * Rotation (decision 0918): a next key of `alg` is created and published now, and signs from
   * NEXT_KEY_PUBLISHED_AHEAD_MS on; the keys signing now stop then (retired at that instant) and
   * stay published RETIRED_KEYS_PUBLISHED_MS longer, past the expiry of every token they signed.
   * Does nothing when a next key is already waiting (another instance rotated first).
   */
  async rotate(alg: SigningAlg): Promise<void> {
    await this.uow.run(async (tx) => {
      await this.repository.lockForCreation(tx);
      const now = this.clock.now();
      const unretired = await this.repository.findUnretired(tx, alg, now);
      if (unretired.some((row) => row.activatesAt > now)) return;
      const activatesAt = new Date(now.getTime() + NEXT_KEY_PUBLISHED_AHEAD_MS);
      const kid = await this.createKey(tx, alg, activatesAt);
      await this.repository.retire(
        tx,
        unretired.map((row) => row.kid),
        activatesAt,
      );
      this.logger.log(`rotating ${alg}: next key ${kid} published, signs from ${activatesAt.toISOString()}`);
    });
    await this.reload();
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
      const now = this.clock.now();
      const unretired = await this.repository.findUnretired(tx, alg, now);
      if (unretired.some((row) => row.activatesAt <= now && this.open(row.kid, row.privateKey))) return;
      const kid = await this.createKey(tx, alg, now);
      this.logger.log(`created ${alg} signing key ${kid}`);
    });
    await this.reload();
  }

  /** A new key pair, its private half sealed, stored to sign from `activatesAt`. */
  private async createKey(tx: Tx, alg: SigningAlg, activatesAt: Date): Promise<string> {
    const kid = `${alg.toLowerCase()}-${randomBytes(8).toString('hex')}`;
    const { publicKey, privateKey } = generate(alg);
    const publicJwk = jwkStrings({ ...publicKey.export({ format: 'jwk' }), kid, alg, use: 'sig' });
    const sealed = this.box.encrypt(privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
    await this.repository.insert(tx, { kid, alg, publicJwk, privateKey: sealed, activatesAt });
    return kid;
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
        activatesAt: row.activatesAt.getTime(),
        retiredAt: row.retiredAt?.getTime() ?? null,
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
