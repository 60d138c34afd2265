import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { Clock } from '../../common/clock';
import { sha256Hex } from '../../common/crypto/tokens';
import { DomainError } from '../../common/errors';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import type { Tx } from '../../database/unit-of-work';
import type { WebAuthnPurpose } from '../entities/webauthn-challenge.entity';
import { NewPasskey, PasskeyRecord, PasskeysRepository } from './passkeys.repository';
import { authenticationResponse, keyAmr, registrationResponse, signedChallenge, userHandleOf, userIdOfHandle } from './webauthn-json';
import { END_USER_ERRORS } from '../../end-user-directory/end-users.errors';

/** A ceremony lives as long as the browser's own timeout allows the user to act (decision 0321). */
export const WEBAUTHN_TIMEOUT_MS = 5 * 60 * 1000;
export const MAX_PASSKEYS_PER_USER = 20;

/** Who may answer an authentication ceremony: one account (second factor), or any account of a workspace (passwordless). */
export type AssertionScope =
  { purpose: 'second_factor'; workspaceId: string; userId: string } | { purpose: 'passwordless'; workspaceId: string };

export interface VerifiedAssertion {
  passkey: PasskeyRecord;
  /** RFC 8176 value of the key (decision 0322). */
  key: 'hwk' | 'swk';
}

export const tooManyPasskeys = () =>
  new DomainError(END_USER_ERRORS.too_many_passkeys, `An account holds at most ${MAX_PASSKEYS_PER_USER} passkeys; remove one first`);

const notAccepted = () => new DomainError(END_USER_ERRORS.passkey_not_accepted, 'The passkey was not accepted; try again');

/**
 * The WebAuthn relying party (Level 2, through @simplewebauthn/server): its id and origin come from
 * PUBLIC_BASE_URL. Every ceremony's challenge is stored (hashed) for 5 minutes and spent by the
 * statement that reads it; sign counters only move forward.
 */
@Injectable()
export class PasskeyCeremonies {
  private readonly logger = new Logger('PasskeyCeremonies');
  readonly rpId: string;
  readonly origin: string;

  constructor(
    private readonly repo: PasskeysRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    const base = new URL(config.PUBLIC_BASE_URL);
    this.rpId = base.hostname;
    this.origin = base.origin;
  }

  async registrationOptions(
    user: { workspaceId: string; id: string; email: string },
    rpName: string,
    existing: PasskeyRecord[],
  ): Promise<PublicKeyCredentialCreationOptionsJSON> {
    if (existing.length >= MAX_PASSKEYS_PER_USER) throw tooManyPasskeys();
    const options = await generateRegistrationOptions({
      rpName,
      rpID: this.rpId,
      userName: user.email,
      userID: userHandleOf(user.id),
      userDisplayName: user.email,
      timeout: WEBAUTHN_TIMEOUT_MS,
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
      // Discoverable, so the same passkey also signs in without a password (decision 0320).
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    await this.remember(user.workspaceId, user.id, 'register', options.challenge);
    return options;
  }

  /** Verify a new credential against the account's registration ceremony; the challenge is spent either way. */
  async verifyRegistration(user: { workspaceId: string; id: string }, body: unknown, name: string): Promise<NewPasskey> {
    const response = registrationResponse(body);
    await this.spend(null, response.response.clientDataJSON, 'register', user.workspaceId, user.id);
    let verified;
    try {
      verified = await verifyRegistrationResponse({
        response,
        expectedChallenge: () => true, // the stored challenge was matched and spent above
        expectedOrigin: this.origin,
        expectedRPID: this.rpId,
        requireUserVerification: false,
      });
    } catch {
      throw notAccepted();
    }
    if (!verified.verified) throw notAccepted();
    const info = verified.registrationInfo;
    return {
      credentialId: info.credential.id,
      publicKey: info.credential.publicKey,
      signCount: info.credential.counter,
      transports: info.credential.transports ?? response.response.transports ?? [],
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp,
      name,
      now: this.clock.now(),
    };
  }

  async authenticationOptions(scope: AssertionScope, allowed: PasskeyRecord[] = []): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const options = await generateAuthenticationOptions({
      rpID: this.rpId,
      timeout: WEBAUTHN_TIMEOUT_MS,
      allowCredentials: allowed.map((p) => ({ id: p.credentialId, transports: p.transports })),
      // Without a password the passkey is both factors: the authenticator must verify the user.
      userVerification: scope.purpose === 'passwordless' ? 'required' : 'preferred',
    });
    await this.remember(scope.workspaceId, scope.purpose === 'second_factor' ? scope.userId : null, scope.purpose, options.challenge);
    return options;
  }

  /**
   * Check an assertion inside the caller's transaction: the ceremony's challenge is spent, the
   * credential is the account's (or, passwordless, the workspace's, and the user handle names its
   * owner), the signature verifies, and the counter moves forward. Null when any of it fails.
   */
  async verifyAssertion(tx: Tx, scope: AssertionScope, body: unknown): Promise<VerifiedAssertion | null> {
    const response = authenticationResponse(body);
    const spent = await this.spend(tx, response.response.clientDataJSON, scope.purpose, scope.workspaceId, null).catch(() => null);
    if (!spent) return null;
    if (scope.purpose === 'second_factor' && spent.userId !== scope.userId) return null;
    const passkey = await this.repo.lockByCredential(tx, scope.workspaceId, response.id);
    if (!passkey) return null;
    if (scope.purpose === 'second_factor' && passkey.userId !== scope.userId) return null;
    if (scope.purpose === 'passwordless') {
      const handle = response.response.userHandle;
      if (!handle || userIdOfHandle(handle) !== passkey.userId) return null;
    }
    let verified;
    try {
      verified = await verifyAuthenticationResponse({
        response,
        expectedChallenge: () => true, // matched and spent above
        expectedOrigin: this.origin,
        expectedRPID: this.rpId,
        credential: { id: passkey.credentialId, publicKey: new Uint8Array(passkey.publicKey), counter: passkey.signCount },
        requireUserVerification: scope.purpose === 'passwordless',
      });
    } catch {
      return null; // bad signature, wrong origin, or a counter that went backwards (a cloned key)
    }
    if (!verified.verified) return null;
    const moved = await this.repo.use(tx, scope.workspaceId, passkey.id, verified.authenticationInfo.newCounter, this.clock.now());
    return moved ? { passkey, key: keyAmr(passkey.deviceType) } : null;
  }

  private async remember(workspaceId: string, userId: string | null, purpose: WebAuthnPurpose, challenge: string): Promise<void> {
    const now = this.clock.now();
    await this.repo.saveChallenge(workspaceId, userId, purpose, sha256Hex(challenge), now, new Date(now.getTime() + WEBAUTHN_TIMEOUT_MS));
    // Abandoned ceremonies leave rows behind; about one ceremony in a hundred clears the expired ones.
    if (Math.random() < 0.01) {
      this.repo.pruneChallenges(now).catch((err: Error) => this.logger.warn(`webauthn challenge prune failed: ${err.message}`));
    }
  }

  /** Spend the stored challenge the browser signed; it must belong to this workspace (and user, when given). */
  private async spend(tx: Tx | null, clientDataJSON: string, purpose: WebAuthnPurpose, workspaceId: string, userId: string | null) {
    const hash = sha256Hex(signedChallenge(clientDataJSON));
    const spent = await this.repo.spendChallenge(tx, hash, purpose, this.clock.now());
    if (!spent || spent.workspaceId !== workspaceId || (userId !== null && spent.userId !== userId)) throw notAccepted();
    return spent;
  }
}
