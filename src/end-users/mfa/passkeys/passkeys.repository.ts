import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { preparedQuery } from '../../../database/prepared-query';
import { date, dateOrNull, QueryRow, RowShapeError, text, textArray, textOrNull } from '../../../database/rows';
import type { Tx } from '../../../database/unit-of-work';
import type { WebAuthnPurpose } from '../entities/webauthn-challenge.entity';

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
export interface SpentChallenge {
  workspaceId: string;
  userId: string | null;
}

const COLUMNS = `id, workspace_id, user_id, credential_id, public_key, sign_count::text AS sign_count, transports, device_type, name,
  created_at, last_used_at`;

const BY_USER = `SELECT ${COLUMNS} FROM end_user_passkeys WHERE workspace_id = $1 AND user_id = $2 ORDER BY created_at, id`;
const BY_CREDENTIAL = `SELECT ${COLUMNS} FROM end_user_passkeys WHERE workspace_id = $1 AND credential_id = $2 FOR UPDATE`;

// Single use: the DELETE that finds the challenge is the only one that gets it back.
const SPEND_CHALLENGE = `DELETE FROM webauthn_challenges
   WHERE challenge_hash = $1 AND purpose = $2 AND expires_at > $3
  RETURNING workspace_id, user_id`;

// The counter only moves forward (WebAuthn §6.1.1); 0 = 0 is an authenticator without a counter.
const USE_PASSKEY = `UPDATE end_user_passkeys SET sign_count = $3, last_used_at = $4
   WHERE workspace_id = $1 AND id = $2 AND (sign_count < $3 OR (sign_count = 0 AND $3 = 0)) RETURNING id`;

function toPasskey(row: QueryRow): PasskeyRecord {
  const deviceType = text(row, 'device_type');
  if (deviceType !== 'singleDevice' && deviceType !== 'multiDevice') throw new RowShapeError('device_type', 'a device type', deviceType);
  const key = row.public_key;
  if (!Buffer.isBuffer(key)) throw new RowShapeError('public_key', 'bytea', key);
  return {
    id: text(row, 'id'),
    workspaceId: text(row, 'workspace_id'),
    userId: text(row, 'user_id'),
    credentialId: text(row, 'credential_id'),
    publicKey: new Uint8Array(key),
    signCount: Number(text(row, 'sign_count')),
    transports: textArray(row, 'transports'),
    deviceType,
    name: text(row, 'name'),
    createdAt: date(row, 'created_at'),
    lastUsedAt: dateOrNull(row, 'last_used_at'),
  };
}

/** end_user_passkeys and webauthn_challenges. Every method takes the workspace first, except spending a presented challenge. */
@Injectable()
export class PasskeysRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async list(workspaceId: string, userId: string, on: Tx | DataSource = this.dataSource): Promise<PasskeyRecord[]> {
    return (await preparedQuery(on, BY_USER, [workspaceId, userId])).map(toPasskey);
  }

  /** The credential a browser presented, row-locked so concurrent uses of one credential are serialised. */
  async lockByCredential(tx: Tx, workspaceId: string, credentialId: string): Promise<PasskeyRecord | null> {
    const [row] = await preparedQuery(tx, BY_CREDENTIAL, [workspaceId, credentialId]);
    return row ? toPasskey(row) : null;
  }

  /** False when the credential id is already registered in the workspace. */
  async insert(tx: Tx, workspaceId: string, userId: string, p: NewPasskey): Promise<PasskeyRecord | null> {
    const rows = await preparedQuery(
      tx,
      `INSERT INTO end_user_passkeys (workspace_id, user_id, credential_id, public_key, sign_count, transports, device_type, backed_up, name, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT ON CONSTRAINT end_user_passkeys_credential_key DO NOTHING
       RETURNING ${COLUMNS}`,
      [workspaceId, userId, p.credentialId, Buffer.from(p.publicKey), p.signCount, p.transports, p.deviceType, p.backedUp, p.name, p.now],
    );
    return rows[0] ? toPasskey(rows[0]) : null;
  }

  async rename(tx: Tx, workspaceId: string, userId: string, id: string, name: string): Promise<PasskeyRecord | null> {
    const rows = await preparedQuery(
      tx,
      `UPDATE end_user_passkeys SET name = $4 WHERE workspace_id = $1 AND user_id = $2 AND id = $3 RETURNING ${COLUMNS}`,
      [workspaceId, userId, id, name],
    );
    return rows[0] ? toPasskey(rows[0]) : null;
  }

  async remove(tx: Tx, workspaceId: string, userId: string, id: string): Promise<PasskeyRecord | null> {
    const rows = await preparedQuery(
      tx,
      `DELETE FROM end_user_passkeys WHERE workspace_id = $1 AND user_id = $2 AND id = $3 RETURNING ${COLUMNS}`,
      [workspaceId, userId, id],
    );
    return rows[0] ? toPasskey(rows[0]) : null;
  }

  /** Record a use: true only when the counter moved forward (or the authenticator keeps none). */
  async use(tx: Tx, workspaceId: string, id: string, newCount: number, now: Date): Promise<boolean> {
    return (await preparedQuery(tx, USE_PASSKEY, [workspaceId, id, newCount, now])).length === 1;
  }

  async saveChallenge(
    workspaceId: string,
    userId: string | null,
    purpose: WebAuthnPurpose,
    challengeHash: string,
    now: Date,
    expiresAt: Date,
  ): Promise<void> {
    await preparedQuery(
      this.dataSource,
      `INSERT INTO webauthn_challenges (challenge_hash, workspace_id, user_id, purpose, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [challengeHash, workspaceId, userId, purpose, now, expiresAt],
    );
  }

  /** In the caller's transaction, or (tx null) as one statement of its own, so a failed ceremony still spends it. */
  async spendChallenge(tx: Tx | null, challengeHash: string, purpose: WebAuthnPurpose, now: Date): Promise<SpentChallenge | null> {
    const [row] = await preparedQuery(tx ?? this.dataSource, SPEND_CHALLENGE, [challengeHash, purpose, now]);
    return row ? { workspaceId: text(row, 'workspace_id'), userId: textOrNull(row, 'user_id') } : null;
  }

  /** Unused challenges of abandoned ceremonies; called now and then. */
  async pruneChallenges(before: Date): Promise<void> {
    await this.dataSource.query(`DELETE FROM webauthn_challenges WHERE expires_at < $1`, [before]);
  }
}
