import { Injectable } from '@nestjs/common';
import { DomainError } from '../common/errors';
import type { RequestMeta } from '../common/request-context';
import { MfaService, TotpEnrolmentView } from '../second-factor/mfa.service';
import { PasskeysService } from '../second-factor/passkeys/passkeys.service';
import { parseJsonField } from '../second-factor/passkeys/webauthn-json';
import type { BrowserSession } from './browser-sessions.service';
import { HostedContexts } from './hosted-contexts';
import type { HostedResult } from './hosted-outcome';
import { loginFirst as loginWith, principalOf, SessionsContext } from './hosted-sessions.service';
import type { SecurityPageModel } from './views/security-page.view';
import { ACCOUNT_PAGES } from './views/account-links';

export const SECURITY_PAGE = ACCOUNT_PAGES.security;

/** What the security page shows: the user's factors, and what the last change produced (notice, error, codes, a set-up). */
export type SecurityView = Omit<SecurityPageModel, 'csrfToken' | 'base'>;
export type SecurityResult = HostedResult<SecurityView>;

type Extra = Partial<Pick<SecurityPageModel, 'notice' | 'error' | 'recoveryCodes' | 'enrolment'>>;

/**
 * The hosted security page: the browser's signed-in end user sets up and removes the authenticator
 * app and passkeys, and renews recovery codes. Every change goes through MfaService, as the API does;
 * the answer is a SecurityResult, which the controller draws.
 */
@Injectable()
export class HostedSecurityService {
  constructor(
    private readonly mfa: MfaService,
    private readonly passkeys: PasskeysService,
    private readonly contexts: HostedContexts,
  ) {}

  async show(session: BrowserSession | null, context: SessionsContext, extra: Extra = {}): Promise<SecurityResult> {
    if (!session) return { kind: 'redirect', location: loginWith(context, SECURITY_PAGE) };
    return this.page(session, 200, extra);
  }

  async startTotp(session: BrowserSession | null): Promise<SecurityResult> {
    if (!session) return loginFirst();
    return this.attempt(session, async () => ({ enrolment: await this.mfa.startTotp(principalOf(session), true) }));
  }

  async confirmTotp(session: BrowserSession | null, code: unknown, request: RequestMeta): Promise<SecurityResult> {
    if (!session) return loginFirst();
    const submitted = typeof code === 'string' ? code.trim() : '';
    return this.attempt(
      session,
      async () => {
        const { recovery_codes } = await this.mfa.confirmTotp(principalOf(session), submitted, request);
        return { notice: 'Two-step verification is on.', recoveryCodes: recovery_codes };
      },
      // A wrong code keeps the set-up on screen with a fresh look at the same pending key.
      async () => ({ enrolment: await this.pendingEnrolment(session) }),
    );
  }

  async removeTotp(session: BrowserSession | null, proof: unknown, request: RequestMeta): Promise<SecurityResult> {
    if (!session) return loginFirst();
    const value = typeof proof === 'string' ? proof.trim().slice(0, 64) : '';
    const byCode = /^[0-9]{6}$/.test(value);
    return this.attempt(session, async () => {
      await this.mfa.disableTotp(principalOf(session), byCode ? { code: value } : { recovery_code: value }, request);
      return { notice: 'The authenticator app is removed. Your password alone signs you in now.' };
    });
  }

  async regenerate(session: BrowserSession | null, request: RequestMeta): Promise<SecurityResult> {
    if (!session) return loginFirst();
    return this.attempt(session, async () => {
      const { recovery_codes } = await this.mfa.regenerateRecoveryCodes(principalOf(session), request);
      return { notice: 'New recovery codes issued; the old ones no longer work.', recoveryCodes: recovery_codes };
    });
  }

  async passkeyOptions(session: BrowserSession | null): Promise<{ status: number; body: unknown }> {
    if (!session) return { status: 401, body: { error: 'unauthorized', message: 'Sign in again to add a passkey' } };
    try {
      return { status: 200, body: await this.passkeys.registrationOptions(principalOf(session)) };
    } catch (err) {
      if (!(err instanceof DomainError) || err.status >= 500) throw err;
      return { status: err.status, body: { error: err.code, message: err.message } };
    }
  }

  async addPasskey(session: BrowserSession | null, name: unknown, credential: unknown, request: RequestMeta): Promise<SecurityResult> {
    if (!session) return loginFirst();
    return this.attempt(session, async () => {
      const json = parseJsonField(typeof credential === 'string' ? credential : undefined);
      const added = await this.passkeys.register(principalOf(session), { name, credential: json }, request);
      return { notice: `Passkey “${added.passkey.name}” added.`, recoveryCodes: added.recovery_codes };
    });
  }

  async renamePasskey(session: BrowserSession | null, id: unknown, name: unknown): Promise<SecurityResult> {
    if (!session) return loginFirst();
    return this.attempt(session, async () => {
      const renamed = await this.passkeys.rename(principalOf(session), typeof id === 'string' ? id : '', name);
      return { notice: `Passkey renamed to “${renamed.name}”.` };
    });
  }

  async removePasskey(session: BrowserSession | null, id: unknown, request: RequestMeta): Promise<SecurityResult> {
    if (!session) return loginFirst();
    return this.attempt(session, async () => {
      await this.passkeys.remove(principalOf(session), typeof id === 'string' ? id : '', request);
      return { notice: 'The passkey is removed.' };
    });
  }

  /** Run a change; a domain error is shown on the page (400) instead of failing it. */
  private async attempt(
    session: BrowserSession,
    change: () => Promise<Extra>,
    onError: () => Promise<Extra> = async () => ({}),
  ): Promise<SecurityResult> {
    try {
      return await this.page(session, 200, await change());
    } catch (err) {
      if (!(err instanceof DomainError) || err.status >= 500) throw err;
      return this.page(session, err.status === 401 ? 400 : err.status, { error: err.message, ...(await onError()) });
    }
  }

  private async pendingEnrolment(session: BrowserSession): Promise<TotpEnrolmentView | null> {
    return this.mfa.pendingTotp(principalOf(session));
  }

  private async page(session: BrowserSession | null, status: number, extra: Extra): Promise<SecurityResult> {
    if (!session) return loginFirst();
    const [mfaStatus, brand] = await Promise.all([this.mfa.status(principalOf(session)), this.contexts.brandOf(session)]);
    return { kind: 'page', status, view: { email: session.email, brand, status: mfaStatus, ...extra } };
  }
}

/** A form posted after the session ended: back to the page, which sends the user to sign in. */
function loginFirst(): SecurityResult {
  return { kind: 'redirect', location: SECURITY_PAGE };
}
