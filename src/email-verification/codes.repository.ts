import { Inject, Injectable } from '@nestjs/common';
import { hkdfSync } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { codeMatches, CodePurpose, generateCode, hashCode } from './one-time-code';

export interface CodeRow {
  id: string;
  workspace_id: string;
  user_id: string;
  purpose: CodePurpose;
  code_hash: string;
  attempts: number;
  sent_at: Date;
  expires_at: Date;
}

export const CODE_TTL_MS = 60 * 60 * 1000;
export const MAX_CODE_ATTEMPTS = 5;
export const RESEND_COOLDOWN_MS = 60 * 1000;

/**
 * One live one-time code per account and purpose, stored as an HMAC under a key derived from
 * AUTH_JWT_SECRET (a dump of the table alone does not reveal codes).
 */
@Injectable()
export class CodesRepository {
  private readonly key: Buffer;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.key = Buffer.from(hkdfSync('sha256', config.AUTH_JWT_SECRET ?? '', 'identity-service', 'one-time-codes', 32));
  }

  /** Issue a fresh code, replacing any previous one (attempts reset). Returns the plaintext to mail. */
  async issue(manager: EntityManager, workspaceId: string, userId: string, purpose: CodePurpose, now: Date): Promise<string> {
    const code = generateCode();
    await manager.query(
      `INSERT INTO end_user_codes (workspace_id, user_id, purpose, code_hash, attempts, sent_at, expires_at)
       VALUES ($1, $2, $3, $4, 0, $5, $6)
       ON CONFLICT (user_id, purpose)
       DO UPDATE SET code_hash = EXCLUDED.code_hash, attempts = 0, sent_at = EXCLUDED.sent_at, expires_at = EXCLUDED.expires_at`,
      [workspaceId, userId, purpose, hashCode(this.key, purpose, userId, code), now, new Date(now.getTime() + CODE_TTL_MS)],
    );
    return code;
  }

  async lockCodes(manager: EntityManager, purpose: CodePurpose, userIds: string[]): Promise<CodeRow[]> {
    if (!userIds.length) return [];
    return (await manager.query(
      `SELECT id, workspace_id, user_id, purpose, code_hash, attempts, sent_at, expires_at FROM end_user_codes
        WHERE purpose = $1 AND user_id = ANY($2::uuid[]) ORDER BY sent_at FOR UPDATE`,
      [purpose, userIds],
    )) as CodeRow[];
  }

  matches(row: CodeRow, submitted: string): boolean {
    return codeMatches(this.key, row.purpose, row.user_id, submitted, row.code_hash);
  }

  async countFailure(manager: EntityManager, ids: string[]): Promise<void> {
    if (ids.length) await manager.query(`UPDATE end_user_codes SET attempts = attempts + 1 WHERE id = ANY($1::uuid[])`, [ids]);
  }

  async remove(manager: EntityManager, userId: string, purpose: CodePurpose): Promise<void> {
    await manager.query(`DELETE FROM end_user_codes WHERE user_id = $1 AND purpose = $2`, [userId, purpose]);
  }
}
