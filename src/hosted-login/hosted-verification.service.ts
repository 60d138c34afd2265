import { Injectable } from '@nestjs/common';
import { DomainError } from '../common/errors';
import type { RequestMeta } from '../common/request-context';
import { EmailVerificationService } from '../email-verification/email-verification.service';
import { EndUserRecord } from '../end-user-directory/end-users.repository';
import type { BrowserSession } from './browser-sessions.service';
import { HostedContexts } from './hosted-contexts';
import type { BrowserBinding, HostedInput } from './hosted-input';
import { HostedLoginService } from './hosted-login.service';
import { INCOMPLETE_LINK, pageOf, SignInResult, SignInView } from './hosted-outcome';
import { SignInContinuations } from './sign-in-continuation';

/**
 * "Verify your email first" on the hosted pages: the 6-digit code, a new code, and the sign-in the
 * verification interrupted, which continues without the password when this browser holds its
 * continuation (decision 0050).
 */
@Injectable()
export class HostedVerificationService {
  constructor(
    private readonly contexts: HostedContexts,
    private readonly verification: EmailVerificationService,
    private readonly continuations: SignInContinuations,
    private readonly login: HostedLoginService,
  ) {}

  async verify(
    input: HostedInput,
    request: RequestMeta,
    previous: BrowserSession | null = null,
    browser?: BrowserBinding,
  ): Promise<SignInResult> {
    const resolved = await this.contexts.resolve(input.context);
    if (!resolved) return INCOMPLETE_LINK;
    let verified: EndUserRecord;
    try {
      verified = await this.verification.verifyAccount(input.email ?? '', input.code ?? '', request);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      if (err.code === 'already_verified') {
        return pageOf(200, { page: 'login', brand: resolved.brand, notice: 'Your email is already verified. Sign in to continue.' });
      }
      return pageOf(err.status, { page: 'verify-email', brand: resolved.brand, error: err.message });
    }
    // The sign-in this verification interrupted continues when this browser holds its continuation
    // for the account just verified, in the workspace of this page.
    const claim = this.continuations.read(browser?.continuation, browser?.csrfCookie);
    if (claim && claim.userId === verified.id && claim.workspaceId === verified.workspaceId) {
      const sameScope =
        resolved.scope.workspaceId === verified.workspaceId &&
        (!resolved.scope.oauthClientId || resolved.scope.oauthClientId === verified.oauthClientId);
      if (sameScope && verified.isActive) {
        const done = await this.login.completeSignIn({ ...verified, emailVerified: true }, input, resolved.brand, request, previous);
        return { ...done, continuation: 'clear' };
      }
    }
    return {
      ...pageOf<SignInView>(200, { page: 'login', brand: resolved.brand, notice: 'Email verified. Sign in to continue.' }),
      ...(browser?.continuation ? { continuation: 'clear' as const } : {}),
    };
  }

  async resend(input: HostedInput, request: RequestMeta): Promise<SignInResult> {
    const resolved = await this.contexts.resolve(input.context);
    if (!resolved) return INCOMPLETE_LINK;
    try {
      await this.verification.resend(input.email ?? '', request);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      return pageOf(err.status, { page: 'verify-email', brand: resolved.brand, error: err.message });
    }
    return pageOf(200, { page: 'verify-email', brand: resolved.brand, notice: 'We sent you a new code.' });
  }
}
