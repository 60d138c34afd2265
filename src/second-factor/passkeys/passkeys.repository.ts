import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { entityColumns, NO_ROW } from '../../database/row-shape';
import { first, run, statement } from '../../database/statement';
import type { Tx } from '../../database/unit-of-work';
import { EndUserPasskey } from '../entities/end-user-passkey.entity';
import { WebAuthnChallenge, type WebAuthnPurpose } from '../entities/webauthn-challenge.entity';

/** A stored credential as a ceremony needs it. */
export interface PasskeyRecord {
  id: string;
  workspaceId: string;
  userId: string;
  credentialId: string;
  publicKey: Uint8Array;
  signCount: number;
  transports: string[];
  deviceType: 'singleDevice' | 'multiDevice';
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export interface NewPasskey {
  credentialId: string;
  publicKey: Uint8Array;
  signCount: number;
  transports: string[];
  deviceType: 'singleDevice' | 'multiDevice';
  backedUp: boolean;
  name: string;
  now: Date;
}

/** A challenge spent by the statement that read it. */
export type SpentChallenge = Pick<WebAuthnChallenge, 'workspaceId' | 'userId'>;

const COLUMNS = `id, workspace_id, user_id, credential_id, public_key, sign_count, transports, device_type, name,
  created_at, last_used_at`;

const PASSKEY_PROPERTIES = [
  'id',
  'workspaceId',
  'userId',
  'credentialId',
  'publicKey',
  'signCount',
  'transports',
  'deviceType',
  'name',
  'createdAt',
  'lastUsedAt',
] as const;
type PasskeyRow = Pick<EndUserPasskey, (typeof PASSKEY_PROPERTIES)[number]>;

/** An end_user_passkeys row selected with COLUMNS. */
const PASSKEY_ROW = entityColumns(EndUserPasskey, PASSKEY_PROPERTIES, { values: { deviceType: ['singleDevice', 'multiDevice'] } });

const BY_USER = statement(
  'passkeys.by-user',
  `SELECT ${COLUMNS} FROM end_user_passkeys WHERE workspace_id = $1 AND user_id = $2 ORDER BY created_at, id`,
  PASSKEY_ROW,
);

const BY_CREDENTIAL = statement(
  'passkeys.lock-by-credential',
  `SELECT ${COLUMNS} FROM end_user_passkeys WHERE workspace_id = $1 AND credential_id = $2 FOR UPDATE`,
  PASSKEY_ROW,
);

const INSERT = statement(
  'passkeys.insert',
  `INSERT INTO end_user_passkeys (workspace_id, user_id, credential_id, public_key, sign_count, transports, device_type, backed_up, name, created_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
  ON CONFLICT ON CONSTRAINT end_user_passkeys_credential_key DO NOTHING
  RETURNING ${COLUMNS}`,
  PASSKEY_ROW,
);

const RENAME = statement(
  'passkeys.rename',
  `UPDATE end_user_passkeys SET name = $4 WHERE workspace_id = $1 AND user_id = $2 AND id = $3 RETURNING ${COLUMNS}`,
  PASSKEY_ROW,
);

const REMOVE = statement(
  'passkeys.remove',
  `DELETE FROM end_user_passkeys WHERE workspace_id = $1 AND user_id = $2 AND id = $3 RETURNING ${COLUMNS}`,
  PASSKEY_ROW,
);

// The counter only moves forward (WebAuthn §6.1.1); 0 = 0 is an authenticator without a counter.
const USE_PASSKEY = statement(
  'passkeys.use',
  `UPDATE end_user_passkeys SET sign_count = $3, last_used_at = $4
   WHERE workspace_id = $1 AND id = $2 AND (sign_count < $3 OR (sign_count = 0 AND $3 = 0)) RETURNING id`,
  NO_ROW,
);

const SAVE_CHALLENGE = statement(
  'passkeys.save-challenge',
  `INSERT INTO webauthn_challenges (challenge_hash, workspace_id, user_id, purpose, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
  NO_ROW,
);

// Single use: the DELETE that finds the challenge is the only one that gets it back.
const SPEND_CHALLENGE = statement(
  'passkeys.spend-challenge',
  `DELETE FROM webauthn_challenges
   WHERE challenge_hash = $1 AND purpose = $2 AND expires_at > $3
  RETURNING workspace_id, user_id`,
  entityColumns(WebAuthnChallenge, ['workspaceId', 'userId']),
);

const PRUNE_CHALLENGES = statement('passkeys.prune-challenges', `DELETE FROM webauthn_challenges WHERE expires_at < $1`, NO_ROW);

function toPasskey(row: PasskeyRow): PasskeyRecord {
  return { ...row, publicKey: new Uint8Array(row.publicKey), signCount: Number(row.signCount) };
}

/** end_user_passkeys and webauthn_challenges. Every method takes the workspace first, except spending a presented challenge. */
@Injectable()
export class PasskeysRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async list(workspaceId: string, userId: string, on: Tx | DataSource = this.dataSource): Promise<PasskeyRecord[]> {
    return (await run(on, BY_USER, [workspaceId, userId])).map(toPasskey);
  }

  /** The credential a browser presented, row-locked so concurrent uses of one credential are serialised. */
  async lockByCredential(tx: Tx, workspaceId: string, credentialId: string): Promise<PasskeyRecord | null> {
    const row = await first(tx, BY_CREDENTIAL, [workspaceId, credentialId]);
    return row ? toPasskey(row) : null;
  }

  /** False when the credential id is already registered in the workspace. */
  async insert(tx: Tx, workspaceId: string, userId: string, p: NewPasskey): Promise<PasskeyRecord | null> {
    const row = await first(tx, INSERT, [
      workspaceId,
      userId,
      p.credentialId,
      Buffer.from(p.publicKey),
      p.signCount,
      p.transports,
      p.deviceType,
      p.backedUp,
      p.name,
      p.now,
    ]);
    return row ? toPasskey(row) : null;
  }

  async rename(tx: Tx, workspaceId: string, userId: string, id: string, name: string): Promise<PasskeyRecord | null> {
    const row = await first(tx, RENAME, [workspaceId, userId, id, name]);
    return row ? toPasskey(row) : null;
  }

  async remove(tx: Tx, workspaceId: string, userId: string, id: string): Promise<PasskeyRecord | null> {
    const row = await first(tx, REMOVE, [workspaceId, userId, id]);
    return row ? toPasskey(row) : null;
  }

  /** Record a use: true only when the counter moved forward (or the authenticator keeps none). */
  async use(tx: Tx, workspaceId: string, id: string, newCount: number, now: Date): Promise<boolean> {
    return (await run(tx, USE_PASSKEY, [workspaceId, id, newCount, now])).length === 1;
  }

  async saveChallenge(
    workspaceId: string,
    userId: string | null,
    purpose: WebAuthnPurpose,
    challengeHash: string,
    now: Date,
    expiresAt: Date,
  ): Promise<void> {
    await run(this.dataSource, SAVE_CHALLENGE, [challengeHash, workspaceId, userId, purpose, now, expiresAt]);
  }

  /** In the caller's transaction, or (tx null) as one statement of its own, so a failed ceremony still spends it. */
  async spendChallenge(tx: Tx | null, challengeHash: string, purpose: WebAuthnPurpose, now: Date): Promise<SpentChallenge | null> {
    return (await first(tx ?? this.dataSource, SPEND_CHALLENGE, [challengeHash, purpose, now])) ?? null;
  }

  /** Unused challenges of abandoned ceremonies; called now and then. */
  async pruneChallenges(before: Date): Promise<void> {
    await run(this.dataSource, PRUNE_CHALLENGES, [before]);
  }
}
