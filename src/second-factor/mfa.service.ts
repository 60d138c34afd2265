import { Injectable } from '@nestjs/common';
import QRCode from 'qrcode';
import type { EndUserPrincipal } from '../common/auth/principal';
import { Clock } from '../common/clock';
import { DomainError } from '../common/errors';
import type { RequestMeta } from '../common/request-context';
import { type Tx, UnitOfWork } from '../database/unit-of-work';
import type { AuditFacts } from '../events/domain-events';
import { EndUserRecord, EndUsersRepository } from '../end-user-directory/end-users.repository';
import { FactorVerifier } from './factor-verifier';
import { hasFactor, MfaRepository } from './mfa.repository';
import { PasskeyRecord, PasskeysRepository } from './passkeys/passkeys.repository';
import { matchingStep, newTotpSecret, totpUri } from './totp';
import { COMMON_ERRORS } from '../common/common.errors';
import { END_USER_ERRORS } from '../end-user-directory/end-users.errors';
import type { ViewOf } from '../api-docs/response-schema';
import type { MfaStatusSchema, PasskeySchema, TotpEnrolmentSchema } from './mfa.schemas';

export type MfaStatusView = ViewOf<typeof MfaStatusSchema>;

export type TotpEnrolmentView = ViewOf<typeof TotpEnrolmentSchema> & {
  /** The otpauth URI as an SVG QR code (data: URL), for the hosted page; not part of the API body. */
  qrSvgDataUrl?: string;
};

/** How a factor's removal is authorised: a current code, or one recovery code. */
export interface FactorProof {
  code?: string;
  recovery_code?: string;
}

const invalidCode = () => new DomainError(END_USER_ERRORS.invalid_code, 'The code is not correct');

/**
 * Second factors of the signed-in end user (docs/end-users.md, "Second factor"): the authenticator
 * app (enrol, confirm, remove) and recovery codes. Each change is one unit of work with its audit event.
 */
@Injectable()
export class MfaService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly repo: MfaRepository,
    private readonly users: EndUsersRepository,
    private readonly verifier: FactorVerifier,
    private readonly clock: Clock,
    private readonly passkeys: PasskeysRepository,
  ) {}

  /** Whether the user has a second factor to step up with. */
  async hasSecondFactor(workspaceId: string, userId: string): Promise<boolean> {
    return hasFactor(await this.repo.factors(workspaceId, userId));
  }

  async status(principal: EndUserPrincipal): Promise<MfaStatusView> {
    const [factors, passkeys] = await Promise.all([
      this.repo.factors(principal.workspaceId, principal.userId),
      this.passkeys.list(principal.workspaceId, principal.userId),
    ]);
    return { totp: factors.totp, passkeys: passkeys.map(passkeyView), recovery_codes_left: factors.recoveryCodesLeft };
  }

  /** A new pending secret (a second call replaces a pending one); 409 when an authenticator is already on. */
  async startTotp(principal: EndUserPrincipal, withQr = false): Promise<TotpEnrolmentView> {
    const user = await this.account(principal);
    const now = this.clock.now();
    const secret = newTotpSecret();
    await this.uow.run(async (tx) => {
      const existing = await this.repo.lockTotp(tx, user.workspaceId, user.id);
      if (existing?.confirmedAt) {
        throw new DomainError(
          END_USER_ERRORS.totp_already_enabled,
          'An authenticator app is already set up; remove it first to set up another',
          {},
        );
      }
      await this.repo.savePendingTotp(tx, user.workspaceId, user.id, this.verifier.seal(secret), now);
    });
    const uri = totpUri(secret, await this.repo.issuerName(user.workspaceId, user.id), user.email);
    const view: TotpEnrolmentView = { secret, otpauth_uri: uri };
    if (withQr) view.qrSvgDataUrl = await qrDataUrl(uri);
    return view;
  }

  /** The pending set-up of the account (the same secret again, with its QR code), or null. */
  async pendingTotp(principal: EndUserPrincipal): Promise<TotpEnrolmentView | null> {
    const row = await this.repo.totp(principal.workspaceId, principal.userId);
    if (!row || row.confirmedAt) return null;
    const user = await this.account(principal);
    const secret = this.verifier.open(row.secretEncrypted);
    const uri = totpUri(secret, await this.repo.issuerName(user.workspaceId, user.id), user.email);
    return { secret, otpauth_uri: uri, qrSvgDataUrl: await qrDataUrl(uri) };
  }

  /** The first code turns the pending secret on; the first factor of an account also brings recovery codes. */
  async confirmTotp(principal: EndUserPrincipal, code: string, request: RequestMeta): Promise<{ recovery_codes: string[] | null }> {
    const user = await this.account(principal);
    const now = this.clock.now();
    return this.uow.run(async (tx, events) => {
      const row = await this.repo.lockTotp(tx, user.workspaceId, user.id);
      if (!row || row.confirmedAt) {
        throw new DomainError(END_USER_ERRORS.no_pending_totp, 'Start the set-up first (POST /e/v1/auth/mfa/totp/)');
      }
      const step = matchingStep(this.verifier.open(row.secretEncrypted), code, now);
      if (step === null) throw invalidCode();
      const before = await this.repo.factors(user.workspaceId, user.id, tx);
      await this.repo.confirmTotp(tx, user.workspaceId, user.id, step, now);
      const first = !hasFactor(before) && before.recoveryCodesLeft === 0;
      const codes = first ? await this.verifier.issueRecoveryCodes(tx, user.workspaceId, user.id, now) : null;
      events.emit('mfa_enroll', this.facts(principal, user.email, request, { method: 'totp', recovery_codes_issued: first }));
      return { recovery_codes: codes };
    });
  }

  /** Needs a current code or a recovery code. The last factor's removal also voids the recovery codes. */
  async disableTotp(principal: EndUserPrincipal, proof: FactorProof, request: RequestMeta): Promise<void> {
    const user = await this.account(principal);
    const now = this.clock.now();
    await this.uow.run(async (tx, events) => {
      const row = await this.repo.lockTotp(tx, user.workspaceId, user.id);
      if (!row?.confirmedAt) throw new DomainError(COMMON_ERRORS.not_found, 'No authenticator app is set up');
      const ok = proof.code
        ? await this.verifier.useTotp(tx, user.workspaceId, user.id, proof.code, now)
        : await this.verifier.useRecoveryCode(tx, user.workspaceId, user.id, proof.recovery_code ?? '', now);
      if (!ok) throw invalidCode();
      await this.repo.deleteTotp(tx, user.workspaceId, user.id);
      await this.dropRecoveryCodesWithoutFactor(tx, user.workspaceId, user.id, now);
      events.emit(
        'mfa_remove',
        this.facts(principal, user.email, request, { method: 'totp', proof: proof.code ? 'totp' : 'recovery_code' }),
      );
    });
  }

  /** A new set of ten codes; the old set stops working at once. Only for an account with a factor. */
  async regenerateRecoveryCodes(principal: EndUserPrincipal, request: RequestMeta): Promise<{ recovery_codes: string[] }> {
    const user = await this.account(principal);
    const now = this.clock.now();
    return this.uow.run(async (tx, events) => {
      const factors = await this.repo.factors(user.workspaceId, user.id, tx);
      if (!hasFactor(factors)) throw new DomainError(END_USER_ERRORS.no_second_factor, 'Set up a second factor first');
      const codes = await this.verifier.issueRecoveryCodes(tx, user.workspaceId, user.id, now);
      events.emit('recovery_codes_regenerate', this.facts(principal, user.email, request, { count: codes.length }));
      return { recovery_codes: codes };
    });
  }

  /** No factor left: recovery codes would be a factor of their own, so they go too. */
  async dropRecoveryCodesWithoutFactor(tx: Tx, workspaceId: string, userId: string, now: Date): Promise<void> {
    if (!hasFactor(await this.repo.factors(workspaceId, userId, tx))) {
      await this.repo.replaceRecoveryCodes(tx, workspaceId, userId, [], now);
    }
  }

  /** The signed-in user's account (401 when it was deleted meanwhile). */
  async account(principal: EndUserPrincipal): Promise<EndUserRecord> {
    const user = await this.users.byId(principal.workspaceId, principal.userId);
    if (!user) throw new DomainError(COMMON_ERRORS.unauthorized, 'The account no longer exists');
    return user;
  }

  private facts(principal: EndUserPrincipal, email: string, request: RequestMeta, metadata: Record<string, unknown>): AuditFacts {
    return factorFacts(principal, email, request, metadata);
  }
}

/** The audit facts of a change to the signed-in user's factors. */
export function factorFacts(
  principal: EndUserPrincipal,
  email: string,
  request: RequestMeta,
  metadata: Record<string, unknown>,
): AuditFacts {
  return {
    workspaceId: principal.workspaceId,
    actor: { type: 'end_user', id: principal.userId, email },
    target: { type: 'EndUser', id: principal.userId },
    oauthClientId: principal.oauthClientId,
    request,
    metadata,
  };
}

export type PasskeyView = ViewOf<typeof PasskeySchema>;

export function passkeyView(p: PasskeyRecord): PasskeyView {
  return { id: p.id, name: p.name, created_at: p.createdAt.toISOString(), last_used_at: p.lastUsedAt?.toISOString() ?? null };
}

/** The QR code of an otpauth URI as an SVG data: URL, rendered here so the page loads nothing else. */
export async function qrDataUrl(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}
