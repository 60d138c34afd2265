import { Injectable } from '@nestjs/common';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import type { EndUserPrincipal } from '../../common/auth/principal';
import { Clock } from '../../common/clock';
import { DomainError } from '../../common/errors';
import { isUuid } from '../../common/ids';
import type { RequestMeta } from '../../common/request-context';
import { UnitOfWork } from '../../database/unit-of-work';
import { FactorVerifier } from '../factor-verifier';
import { hasFactor, MfaRepository } from '../mfa.repository';
import { factorFacts, MfaService, PasskeyView, passkeyView } from '../mfa.service';
import { MAX_PASSKEYS_PER_USER, PasskeyCeremonies, tooManyPasskeys } from './passkey-ceremonies';
import { PasskeysRepository } from './passkeys.repository';
import { COMMON_ERRORS } from '../../common/common.errors';
import { END_USER_ERRORS } from '../../end-user-directory/end-users.errors';

export const PASSKEY_NAME_MAX = 64;

const notFound = () => new DomainError(COMMON_ERRORS.not_found, 'No such passkey');

/** A name as the user typed it, trimmed; a default from the date when empty. */
export function passkeyName(name: unknown, now: Date): string {
  const trimmed = typeof name === 'string' ? name.trim() : '';
  if (trimmed.length > PASSKEY_NAME_MAX) {
    throw new DomainError(COMMON_ERRORS.validation_failed, `name must be at most ${PASSKEY_NAME_MAX} characters`);
  }
  return trimmed || `Passkey added ${now.toISOString().slice(0, 10)}`;
}

/**
 * The signed-in end user's passkeys (decision 0320): register several, name, remove. The first
 * factor of an account brings recovery codes, as the authenticator app does; removing the last
 * factor voids them.
 */
@Injectable()
export class PasskeysService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly repo: PasskeysRepository,
    private readonly ceremonies: PasskeyCeremonies,
    private readonly mfa: MfaService,
    private readonly factors: MfaRepository,
    private readonly verifier: FactorVerifier,
    private readonly clock: Clock,
  ) {}

  async list(principal: EndUserPrincipal): Promise<PasskeyView[]> {
    return (await this.repo.list(principal.workspaceId, principal.userId)).map(passkeyView);
  }

  async registrationOptions(principal: EndUserPrincipal): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const user = await this.mfa.account(principal);
    const [existing, rpName] = await Promise.all([
      this.repo.list(user.workspaceId, user.id),
      this.factors.issuerName(user.workspaceId, user.id),
    ]);
    return this.ceremonies.registrationOptions(user, rpName, existing);
  }

  /** Verify and store a new passkey; the first factor of the account also brings ten recovery codes. */
  async register(
    principal: EndUserPrincipal,
    body: { name?: unknown; credential: unknown },
    request: RequestMeta,
  ): Promise<{ passkey: PasskeyView; recovery_codes: string[] | null }> {
    const user = await this.mfa.account(principal);
    const created = await this.ceremonies.verifyRegistration(user, body.credential, passkeyName(body.name, this.clock.now()));
    return this.uow.run(async (tx, events) => {
      const before = await this.factors.factors(user.workspaceId, user.id, tx);
      // Checked again here: several ceremonies may have been started before any finished.
      if (before.passkeys >= MAX_PASSKEYS_PER_USER) throw tooManyPasskeys();
      const row = await this.repo.insert(tx, user.workspaceId, user.id, created);
      if (!row) throw new DomainError(END_USER_ERRORS.passkey_exists, 'This passkey is already registered');
      const first = !hasFactor(before) && before.recoveryCodesLeft === 0;
      const codes = first ? await this.verifier.issueRecoveryCodes(tx, user.workspaceId, user.id, created.now) : null;
      events.emit(
        'mfa_enroll',
        factorFacts(principal, user.email, request, { method: 'passkey', passkey_id: row.id, recovery_codes_issued: first }),
      );
      return { passkey: passkeyView(row), recovery_codes: codes };
    });
  }

  async rename(principal: EndUserPrincipal, id: string, name: unknown): Promise<PasskeyView> {
    if (!isUuid(id)) throw notFound();
    const row = await this.uow.run((tx) =>
      this.repo.rename(tx, principal.workspaceId, principal.userId, id, passkeyName(name, this.clock.now())),
    );
    if (!row) throw notFound();
    return passkeyView(row);
  }

  async remove(principal: EndUserPrincipal, id: string, request: RequestMeta): Promise<void> {
    if (!isUuid(id)) throw notFound();
    const user = await this.mfa.account(principal);
    await this.uow.run(async (tx, events) => {
      const row = await this.repo.remove(tx, user.workspaceId, user.id, id);
      if (!row) throw notFound();
      await this.mfa.dropRecoveryCodesWithoutFactor(tx, user.workspaceId, user.id, this.clock.now());
      events.emit('mfa_remove', factorFacts(principal, user.email, request, { method: 'passkey', passkey_id: row.id, name: row.name }));
    });
  }
}
