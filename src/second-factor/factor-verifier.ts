import { Inject, Injectable } from '@nestjs/common';
import { hkdfSync } from 'node:crypto';
import { SecretBox } from '../common/crypto/secret-box';
import { APP_CONFIG, type AppConfig } from '../config/config';
import type { Tx } from '../database/unit-of-work';
import { MfaRepository } from './mfa.repository';
import { hashRecoveryCode, newRecoveryCode, RECOVERY_CODE_COUNT, recoveryCodeMatches } from './recovery-codes';
import { matchingStep } from './totp';

/** How a second step was passed; decides the session's `amr` (decision 0313). */
export type FactorMethod = 'totp' | 'recovery_code' | 'passkey' | 'email_code';

/**
 * Checks TOTP codes and recovery codes inside the caller's unit of work, so that accepting a code
 * and what it unlocks commit together. Secrets are sealed with the service's secret box; recovery
 * codes are HMACs under a key derived from AUTH_JWT_SECRET.
 */
@Injectable()
export class FactorVerifier {
  private readonly recoveryKey: Buffer;

  constructor(
    private readonly repo: MfaRepository,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly box: SecretBox,
  ) {
    this.recoveryKey = Buffer.from(hkdfSync('sha256', config.AUTH_JWT_SECRET ?? '', 'identity-service', 'recovery-codes', 32));
  }

  seal(secret: string): string {
    return this.box.encrypt(secret);
  }

  open(sealed: string): string {
    return this.box.decrypt(sealed);
  }

  /**
   * A current code of the user's confirmed authenticator, not used before: the step it belongs
   * to must be later than the last accepted one, so a code works once even within its window.
   */
  async useTotp(tx: Tx, workspaceId: string, userId: string, code: string, now: Date): Promise<boolean> {
    const row = await this.repo.lockTotp(tx, workspaceId, userId);
    if (!row?.confirmedAt) return false;
    const step = matchingStep(this.open(row.secretEncrypted), code, now);
    if (step === null) return false;
    return this.repo.useTotpStep(tx, workspaceId, userId, step);
  }

  /**
   * As useTotp for a sign-in's second step, with the sealed secret already read with its challenge:
   * a code that passes also consumes the challenge, in the same statement (one round trip).
   */
  async useTotpForChallenge(
    tx: Tx,
    challenge: { workspaceId: string; userId: string; id: string },
    sealed: string,
    code: string,
    now: Date,
  ): Promise<boolean> {
    const step = matchingStep(this.open(sealed), code, now);
    // The conditional update alone decides between concurrent uses of one step.
    return step !== null && this.repo.useTotpStepAndConsume(tx, challenge.workspaceId, challenge.userId, step, challenge.id, now);
  }

  /**
   * Spend one recovery code: each stored hash is compared in constant time, and the code is
   * marked used by a conditional update, so of concurrent requests with one code exactly one wins.
   */
  async useRecoveryCode(tx: Tx, workspaceId: string, userId: string, code: string, now: Date): Promise<boolean> {
    if (code.length > 64) return false;
    const unused = await this.repo.unusedRecoveryCodes(tx, workspaceId, userId);
    let matched: string | null = null;
    // Compare with every row (no early exit): the time does not depend on which code matched.
    for (const row of unused) if (recoveryCodeMatches(this.recoveryKey, userId, code, row.codeHash) && !matched) matched = row.id;
    if (!matched) return false;
    return this.repo.useRecoveryCode(tx, workspaceId, matched, now);
  }

  /** A fresh set of recovery codes, replacing the old one; the plaintext is shown to the user once. */
  async issueRecoveryCodes(tx: Tx, workspaceId: string, userId: string, now: Date): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    const hashes = codes.map((c) => hashRecoveryCode(this.recoveryKey, userId, c));
    await this.repo.replaceRecoveryCodes(tx, workspaceId, userId, hashes, now);
    return codes;
  }
}
