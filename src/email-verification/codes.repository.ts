import { Inject, Injectable } from '@nestjs/common';
import { hkdfSync } from 'node:crypto';
import { In } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/config';
import type { Tx } from '../database/unit-of-work';
import { EndUserCode } from './entities/end-user-code.entity';
import { codeMatches, CodePurpose, generateCode, hashCode } from './one-time-code';

export const CODE_TTL_MS = 60 * 60 * 1000;
export const MAX_CODE_ATTEMPTS = 5;
export const RESEND_COOLDOWN_MS = 60 * 1000;

/**
 * end_user_codes: one live one-time code per account and purpose, stored as an HMAC under a key
 * derived from AUTH_JWT_SECRET (a dump of the table alone does not reveal codes). Every method
 * runs in the caller's unit of work.
 */
@Injectable()
export class CodesRepository {
  private readonly key: Buffer;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.key = Buffer.from(hkdfSync('sha256', config.AUTH_JWT_SECRET ?? '', 'identity-service', 'one-time-codes', 32));
  }

  /** Issue a fresh code, replacing any previous one (attempts reset). Returns the plaintext to mail. */
  async issue(tx: Tx, workspaceId: string, userId: string, purpose: CodePurpose, now: Date): Promise<string> {
    const code = generateCode();
    await tx
      .getRepository(EndUserCode)
      .createQueryBuilder()
      .insert()
      .values({
        workspaceId,
        userId,
        purpose,
        codeHash: hashCode(this.key, purpose, userId, code),
        attempts: 0,
        sentAt: now,
        expiresAt: new Date(now.getTime() + CODE_TTL_MS),
      })
      // ON CONFLICT (user_id, purpose) DO UPDATE: the new code replaces the old one.
      .orUpdate(['code_hash', 'attempts', 'sent_at', 'expires_at'], ['user_id', 'purpose'])
      .updateEntity(false)
      .execute();
    return code;
  }

  /**
   * The codes of these accounts for a purpose, row-locked, oldest first. The accounts may lie in
   * several workspaces: the public verify endpoints know an email, not a workspace.
   */
  async lockCodes(tx: Tx, purpose: CodePurpose, userIds: string[]): Promise<EndUserCode[]> {
    if (!userIds.length) return [];
    return tx.getRepository(EndUserCode).find({
      where: { purpose, userId: In(userIds) },
      order: { sentAt: 'ASC' },
      lock: { mode: 'pessimistic_write' },
    });
  }

  matches(row: EndUserCode, submitted: string): boolean {
    return codeMatches(this.key, row.purpose, row.userId, submitted, row.codeHash);
  }

  async countFailure(tx: Tx, ids: string[]): Promise<void> {
    if (ids.length) await tx.getRepository(EndUserCode).increment({ id: In(ids) }, 'attempts', 1);
  }

  async remove(tx: Tx, workspaceId: string, userId: string, purpose: CodePurpose): Promise<void> {
    await tx.getRepository(EndUserCode).delete({ workspaceId, userId, purpose });
  }
}
