import { Injectable } from '@nestjs/common';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { DomainError } from '../../common/errors';
import type { RequestMeta } from '../../common/request-context';
import { UnitOfWork } from '../../database/unit-of-work';
import { DomainEventBus } from '../../events/domain-event-bus';
import { EndUserRecord, EndUsersRepository, SignInScope } from '../../end-user-directory/end-users.repository';
import { SignInGate } from '../sign-in-gate.service';
import { PasskeyCeremonies, VerifiedAssertion } from './passkey-ceremonies';
import { END_USER_ERRORS } from '../../end-user-directory/end-users.errors';

/** The account a discoverable passkey signed in, and how (the session's amr and any policy it met). */
export interface PasskeySignIn {
  user: EndUserRecord;
  amr: string[];
  policy?: { action: 'challenge'; kinds: string[] };
}

const notAccepted = () => new DomainError(END_USER_ERRORS.passkey_not_accepted, 'That passkey is not registered for this application');

/**
 * Sign-in without a password (decision 0323): the browser offers any discoverable passkey of this
 * relying party, the user handle names the account, and the account must belong to the sign-in's
 * scope (the application's users, or the workspace's for SAML). User verification is required, so
 * the passkey alone is two factors: amr [hwk|swk, mfa].
 */
@Injectable()
export class PasswordlessSignIn {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly ceremonies: PasskeyCeremonies,
    private readonly users: EndUsersRepository,
    private readonly gate: SignInGate,
    private readonly events: DomainEventBus,
  ) {}

  options(scope: SignInScope): Promise<PublicKeyCredentialRequestOptionsJSON> {
    return this.ceremonies.authenticationOptions({ purpose: 'passwordless', workspaceId: scope.workspaceId });
  }

  /** Verify the assertion (its challenge is spent even when it fails), then apply the workspace's policy. */
  async verify(scope: SignInScope, credential: unknown, request: RequestMeta): Promise<PasskeySignIn> {
    const verified: VerifiedAssertion | null = await this.uow.run((tx) =>
      this.ceremonies.verifyAssertion(tx, { purpose: 'passwordless', workspaceId: scope.workspaceId }, credential),
    );
    const user = verified ? await this.users.byId(scope.workspaceId, verified.passkey.userId) : null;
    const inScope = user && (!scope.oauthClientId || user.oauthClientId === scope.oauthClientId);
    if (!verified || !user || !inScope || !user.isActive || !user.emailVerified) {
      await this.events.publish('login_failure', {
        workspaceId: scope.workspaceId,
        actor: user ? { type: 'end_user', id: user.id, email: user.email } : { type: 'anonymous', id: null },
        target: user ? { type: 'EndUser', id: user.id } : undefined,
        oauthClientId: user?.oauthClientId ?? scope.oauthClientId ?? null,
        request,
        metadata: { reason: 'passkey_not_accepted', method: 'passkey' },
      });
      throw notAccepted();
    }
    const policy = await this.gate.afterPasskey(user, request);
    return { user, amr: [verified.key, 'mfa'], policy };
  }
}
