import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors';
import { isUuid } from '../../common/ids';
import type { RequestMeta } from '../../common/request-context';
import { EmailVerificationService } from '../../email-verification/email-verification.service';
import { EndUserRecord, EndUsersRepository, SignInScope } from '../end-users.repository';
import { MfaChallengesService, methodsOf, SecondStep, WrongSecondFactor } from '../mfa/mfa-challenges.service';
import { PasswordlessSignIn } from '../mfa/passkeys/passwordless-sign-in.service';
import { parseJsonField } from '../mfa/passkeys/webauthn-json';
import { SignInGate } from '../mfa/sign-in-gate.service';
import { AuthRateLimiter } from '../../common/rate-limit/auth-rate-limiter';
import { PasswordService } from '../password.service';
import { SessionsService } from '../sessions.service';
import { INVALID_CREDENTIALS_MESSAGE, SignInService } from '../sign-in.service';
import { BrowserSession, BrowserSessionsService } from './browser-sessions.service';
import { safeNext } from './safe-next';
import { SignInContinuations } from './sign-in-continuation';
import { renderErrorPage } from '../../common/html/error-page.view';
import { LoginContext, renderLoginPage } from './views/login-page.view';
import { renderSecondFactorPage } from './views/second-factor-page.view';
import { renderResetConfirmPage, renderResetRequestPage } from './views/reset-password.view';
import { renderSignedInPage } from './views/signed-in-page.view';
import { renderVerifyEmailPage } from './views/verify-email-page.view';

/** What the controller writes besides the page: the sign-in continuation cookie set or cleared. */
interface ContinuationEffect {
  continuation?: { set: string } | 'clear';
}

export type HostedResult = ContinuationEffect &
  ({ kind: 'page'; status: number; html: string } | { kind: 'redirect'; location: string; sessionToken?: string; clearSession?: boolean });

/** The browser side of a form post: its login-CSRF cookie (what a continuation is bound to) and continuation cookie. */
export interface BrowserBinding {
  csrfCookie: unknown;
  continuation: unknown;
}

/** Form or query fields of the hosted pages, already reduced to strings. */
export interface HostedInput {
  next: string;
  context: LoginContext;
  email?: string;
  password?: string;
  code?: string;
  newPassword?: string;
  /** The second step: the mfa_token of the password step and a recovery code (the TOTP code is `code`). */
  mfaToken?: string;
  recoveryCode?: string;
  /** A WebAuthn credential (JSON text) from a passkey ceremony of the page. */
  passkeyResponse?: string;
  /** The signed-in user is asked for a second factor only (SAML step-up, OpenID acr_values). */
  stepUp?: boolean;
  /** prompt=login (OpenID Connect Core §3.1.2.1): the form even for a signed-in browser, whose session the new sign-in replaces. */
  reauthenticate?: boolean;
  /** The application the sign-in continues to, when the controller knows it (the SAML SP). */
  appName?: string | null;
}

interface ResolvedContext {
  scope: SignInScope;
  brand: string;
}

const page = (status: number, html: string): HostedResult => ({ kind: 'page', status, html });

/**
 * The hosted login flow (GET form, POST sign-in, "verify your email first", sign-out). The sign-in
 * context is a public client_id (that client's users) or a workspace_id (all of the workspace's
 * users, used by SAML): the password decides between accounts with the same email.
 */
@Injectable()
export class HostedLoginService {
  readonly basePath: string;

  constructor(
    private readonly users: EndUsersRepository,
    private readonly signIn: SignInService,
    private readonly sessions: SessionsService,
    private readonly browser: BrowserSessionsService,
    private readonly verification: EmailVerificationService,
    private readonly passwords: PasswordService,
    private readonly continuations: SignInContinuations,
    private readonly mfa: MfaChallengesService,
    private readonly limiter: AuthRateLimiter,
    private readonly gate: SignInGate,
    private readonly passwordless: PasswordlessSignIn,
  ) {
    this.basePath = HOSTED_LOGIN_PATH;
  }

  async show(input: HostedInput, csrfToken: string, current: BrowserSession | null): Promise<HostedResult> {
    const resolved = await this.resolve(input.context);
    if (current && !input.reauthenticate && (!resolved || resolved.scope.workspaceId === current.workspaceId)) {
      // Step-up (a SAML SP asked for a second factor): the signed-in user owes the factor, not the password.
      if (input.stepUp && resolved && !current.amr.includes('mfa')) {
        const challenge = await this.stepUpChallenge(current);
        if (challenge) {
          return page(200, await this.secondFactorPage(input, csrfToken, resolved.brand, challenge.mfa_token, challenge.methods));
        }
      }
      if (input.next !== '/') return { kind: 'redirect', location: input.next };
      return page(
        200,
        renderSignedInPage({
          email: current.email,
          logoutAction: `${this.basePath}logout/`,
          csrfToken,
          brand: resolved?.brand,
          appName: input.appName || resolved?.brand,
          context: input.context,
        }),
      );
    }
    if (!resolved) return this.incompleteLink();
    return page(200, this.loginForm(input, csrfToken, resolved.brand));
  }

  async submit(
    input: HostedInput,
    csrfToken: string,
    request: RequestMeta,
    previous: BrowserSession | null = null,
    browser?: BrowserBinding,
  ): Promise<HostedResult> {
    const resolved = await this.resolve(input.context);
    if (!resolved) return this.incompleteLink();
    const email = (input.email ?? '').trim().toLowerCase();
    let user;
    try {
      user = await this.signIn.checkPassword(resolved.scope, email, input.password ?? '', request);
    } catch (err) {
      if (!(err instanceof DomainError) || err.code !== 'invalid_credentials') throw err;
      return page(401, this.loginForm({ ...input, email }, csrfToken, resolved.brand, INVALID_CREDENTIALS_MESSAGE));
    }
    // Nothing is asserted to a service provider for an address nobody has proven to own. The
    // password is checked, so the sign-in waits for the code instead of asking for it again.
    if (!user.emailVerified) {
      const continuation =
        typeof browser?.csrfCookie === 'string'
          ? this.continuations.issue({ userId: user.id, workspaceId: user.workspaceId }, browser.csrfCookie)
          : undefined;
      return {
        ...page(403, this.verifyPage({ ...input, email }, csrfToken, resolved.brand)),
        ...(continuation ? { continuation: { set: continuation } } : {}),
      };
    }
    return this.completeSignIn(user, input, csrfToken, resolved.brand, request, previous);
  }

  /**
   * The account is known (password checked, email verified). A second factor, or a step-up the
   * workspace's policy asks for, comes before any session exists; otherwise the browser session
   * starts. Every path that signs a person in on these pages ends here.
   */
  private async completeSignIn(
    user: EndUserRecord,
    input: HostedInput,
    csrfToken: string,
    brand: string,
    request: RequestMeta,
    previous: BrowserSession | null,
  ): Promise<HostedResult> {
    let owed;
    try {
      owed = await this.gate.afterPassword(user, 'browser', request);
    } catch (err) {
      if (!(err instanceof DomainError) || err.code !== 'sign_in_blocked') throw err;
      return page(403, this.loginForm({ ...input, email: user.email }, csrfToken, brand, err.message));
    }
    if (owed) return page(200, await this.secondFactorPage(input, csrfToken, brand, owed.mfa_token, owed.methods));
    return this.openBrowserSession(user, ['pwd'], input, request, previous);
  }

  /** The second step of the hosted sign-in: an authenticator code, a recovery code or a passkey against the mfa_token. */
  async secondStep(input: HostedInput, csrfToken: string, request: RequestMeta, previous: BrowserSession | null): Promise<HostedResult> {
    const resolved = await this.resolve(input.context);
    if (!resolved) return this.incompleteLink();
    let passed;
    try {
      passed = await this.mfa.pass({ mfa_token: input.mfaToken ?? '', ...secondStepAnswer(input) }, 'browser', request, (userId) =>
        this.limiter.hitAccount('mfa', `user:${userId}`),
      );
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      if (err instanceof WrongSecondFactor) {
        // The page is drawn again with exactly the methods of this challenge (not a default set).
        const byRecovery = input.recoveryCode !== undefined && input.passkeyResponse === undefined;
        const html = await this.secondFactorPage(input, csrfToken, resolved.brand, input.mfaToken ?? '', err.methods, {
          error: wrongAnswerMessage(input),
          recoveryFirst: byRecovery,
        });
        return page(401, html);
      }
      if (err.code === 'rate_limited') throw err;
      return page(401, this.loginForm(input, csrfToken, resolved.brand, 'This sign-in has expired. Sign in with your password again.'));
    }
    const user = passed.user;
    if (!user.isActive || user.workspaceId !== resolved.scope.workspaceId) return this.incompleteLink();
    const policy = passed.reason === 'step_up' ? { action: 'challenge' as const, kinds: passed.anomalyKinds } : undefined;
    return this.openBrowserSession(user, passed.amr, input, request, previous, policy);
  }

  /** WebAuthn options for "Continue with a passkey" on the sign-in form of this context (JSON for the page's script). */
  async passkeyOptions(input: HostedInput): Promise<{ status: number; body: unknown }> {
    const resolved = await this.resolve(input.context);
    if (!resolved) return { status: 400, body: { error: 'invalid_client', message: 'This sign-in link does not name an application' } };
    return { status: 200, body: await this.passwordless.options(resolved.scope) };
  }

  /** Sign-in with a discoverable passkey alone (decision 0323). */
  async passkeySignIn(input: HostedInput, csrfToken: string, request: RequestMeta, previous: BrowserSession | null): Promise<HostedResult> {
    const resolved = await this.resolve(input.context);
    if (!resolved) return this.incompleteLink();
    let signedIn;
    try {
      signedIn = await this.passwordless.verify(resolved.scope, parseJsonField(input.passkeyResponse), request);
    } catch (err) {
      if (!(err instanceof DomainError) || err.status >= 500 || err.code === 'rate_limited') throw err;
      const message =
        err.code === 'sign_in_blocked' ? err.message : 'That passkey was not accepted for this application. Sign in with your password.';
      return page(err.code === 'sign_in_blocked' ? 403 : 401, this.loginForm(input, csrfToken, resolved.brand, message));
    }
    return this.openBrowserSession(signedIn.user, signedIn.amr, input, request, previous, signedIn.policy);
  }

  /** A challenge for the browser's signed-in user, or null when they have no factor to step up with. */
  private async stepUpChallenge(current: BrowserSession) {
    const user = await this.users.byId(current.workspaceId, current.userId);
    if (!user) return null;
    const methods = methodsOf(await this.mfa.factors(user));
    // A SAML SP's request, not a sign-in policy: an ordinary second step for this browser's user.
    return methods.length ? this.mfa.open(user, 'browser', methods) : null;
  }

  /** The browser session of a finished sign-in; it replaces the previous one of this browser (its cookie is overwritten). */
  private async openBrowserSession(
    user: EndUserRecord,
    amr: string[],
    input: HostedInput,
    request: RequestMeta,
    previous: BrowserSession | null,
    policy?: { action: 'challenge'; kinds: string[] },
  ): Promise<HostedResult> {
    const cookie = this.browser.newToken();
    await this.signIn.startSession(
      user,
      { kind: 'browser', expiresAt: cookie.expiresAt, browserTokenHash: cookie.hash, amr, policy },
      request,
      (tx, _s, now) =>
        previous
          ? this.sessions.revokeIn(tx, previous.workspaceId, { sessionId: previous.sessionId }, 'replaced', now)
          : Promise.resolve([]),
    );
    return { kind: 'redirect', location: this.destination(input), sessionToken: cookie.token };
  }

  /** The second step's page; with a passkey among the methods, its ceremony starts here (options in the page). */
  private async secondFactorPage(
    input: HostedInput,
    csrfToken: string,
    brand: string,
    mfaToken: string,
    methods: string[],
    opts: { error?: string; recoveryFirst?: boolean } = {},
  ): Promise<string> {
    const passkeyOptions = methods.includes('passkey')
      ? await this.mfa.passkeyOptions(mfaToken, 'browser').catch(() => undefined)
      : undefined;
    return renderSecondFactorPage({
      action: `${this.basePath}mfa/`,
      csrfToken,
      mfaToken,
      next: input.next,
      context: input.context,
      brand,
      methods,
      error: opts.error ?? null,
      recoveryFirst: opts.recoveryFirst ?? false,
      passkeyOptions,
    });
  }

  /**
   * Where a completed sign-in goes: `next`, or without one this page again, which then shows "signed
   * in to <application>". Never the service's own landing page (`/`), which is for developers; sending
   * the browser back to the application's redirect URI is the OpenID Connect authorization flow's job.
   */
  private destination(input: HostedInput): string {
    if (input.next !== '/') return input.next;
    return `${this.basePath}?${contextQuery(input, { withNext: false })}`;
  }

  async verify(
    input: HostedInput,
    csrfToken: string,
    request: RequestMeta,
    previous: BrowserSession | null = null,
    browser?: BrowserBinding,
  ): Promise<HostedResult> {
    const resolved = await this.resolve(input.context);
    if (!resolved) return this.incompleteLink();
    let verified: EndUserRecord;
    try {
      verified = await this.verification.verifyAccount(input.email ?? '', input.code ?? '', request);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      if (err.code === 'already_verified') {
        return page(200, this.loginForm(input, csrfToken, resolved.brand, null, 'Your email is already verified. Sign in to continue.'));
      }
      return page(err.status, this.verifyPage(input, csrfToken, resolved.brand, err.message));
    }
    // The sign-in this verification interrupted continues when this browser holds its continuation
    // for the account just verified, in the workspace of this page.
    const claim = this.continuations.read(browser?.continuation, browser?.csrfCookie);
    if (claim && claim.userId === verified.id && claim.workspaceId === verified.workspaceId) {
      const sameScope =
        resolved.scope.workspaceId === verified.workspaceId &&
        (!resolved.scope.oauthClientId || resolved.scope.oauthClientId === verified.oauthClientId);
      if (sameScope && verified.isActive) {
        const done = await this.completeSignIn({ ...verified, emailVerified: true }, input, csrfToken, resolved.brand, request, previous);
        return { ...done, continuation: 'clear' };
      }
    }
    return {
      ...page(200, this.loginForm(input, csrfToken, resolved.brand, null, 'Email verified. Sign in to continue.')),
      ...(browser?.continuation ? { continuation: 'clear' as const } : {}),
    };
  }

  async resend(input: HostedInput, csrfToken: string, request: RequestMeta): Promise<HostedResult> {
    const resolved = await this.resolve(input.context);
    if (!resolved) return this.incompleteLink();
    try {
      await this.verification.resend(input.email ?? '', request);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      return page(err.status, this.verifyPage(input, csrfToken, resolved.brand, err.message));
    }
    return page(200, this.verifyPage(input, csrfToken, resolved.brand, null, 'We sent you a new code.'));
  }

  async showReset(input: HostedInput, csrfToken: string): Promise<HostedResult> {
    const resolved = await this.resolve(input.context);
    if (!resolved) return this.incompleteLink();
    return page(200, this.resetRequestPage(input, csrfToken, resolved.brand));
  }

  /** Always the same next page, whether or not an account matches (the API answers alike). */
  async requestReset(input: HostedInput, csrfToken: string, request: RequestMeta): Promise<HostedResult> {
    const resolved = await this.resolve(input.context);
    if (!resolved) return this.incompleteLink();
    const email = (input.email ?? '').trim().toLowerCase();
    if (!email.includes('@')) return page(400, this.resetRequestPage(input, csrfToken, resolved.brand, 'Enter the email of your account.'));
    await this.passwords.requestReset({ ...this.resetTarget(input), email }, request);
    return page(200, this.resetConfirmPage({ ...input, email }, csrfToken, resolved.brand));
  }

  async confirmReset(input: HostedInput, csrfToken: string, request: RequestMeta): Promise<HostedResult> {
    const resolved = await this.resolve(input.context);
    if (!resolved) return this.incompleteLink();
    const newPassword = input.newPassword ?? '';
    if (newPassword.length < 8 || newPassword.length > 256) {
      return page(400, this.resetConfirmPage(input, csrfToken, resolved.brand, 'Choose a password of 8 to 256 characters.'));
    }
    try {
      await this.passwords.confirmReset(
        { ...this.resetTarget(input), email: input.email ?? '', code: input.code ?? '', new_password: newPassword },
        request,
      );
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      return page(err.status, this.resetConfirmPage(input, csrfToken, resolved.brand, err.message));
    }
    return page(200, this.loginForm(input, csrfToken, resolved.brand, null, 'Your password is set. Sign in with it.'));
  }

  /** Signs the browser out and shows the sign-in form of the same application again. */
  async signOut(current: BrowserSession | null, request: RequestMeta, input?: HostedInput): Promise<HostedResult> {
    if (current) {
      await this.sessions.revokeSession(
        {
          kind: 'end-user',
          userId: current.userId,
          sessionId: current.sessionId,
          workspaceId: current.workspaceId,
          oauthClientId: current.oauthClientId,
          jti: '',
        },
        current.sessionId,
        request,
        'logout',
      );
    }
    const context = input && (input.context.clientId || input.context.workspaceId) ? `?${contextQuery(input, { withNext: false })}` : '';
    return { kind: 'redirect', location: `${this.basePath}${context}`, clearSession: true };
  }

  expiredForm(input: HostedInput): HostedResult {
    const retry = `${this.basePath}?${contextQuery(input)}`;
    return page(
      403,
      renderErrorPage({
        status: 403,
        message: 'This sign-in form has expired or was opened in another browser. Go back and try again.',
        retryHref: retry,
      }),
    );
  }

  private incompleteLink(): HostedResult {
    return page(
      400,
      renderErrorPage({
        status: 400,
        message:
          'This sign-in link is incomplete: it does not say which application you are signing in to. Start again from the application.',
      }),
    );
  }

  private loginForm(
    input: HostedInput,
    csrfToken: string,
    brand: string,
    error: string | null = null,
    notice: string | null = null,
  ): string {
    return renderLoginPage({
      action: this.basePath,
      csrfToken,
      next: input.next,
      context: input.context,
      brand,
      appName: input.appName,
      email: input.email,
      error,
      notice,
      resetHref: `${this.basePath}reset/?${contextQuery(input)}`,
      passkey: { action: `${this.basePath}passkey/`, optionsUrl: `${this.basePath}passkey/options/` },
    });
  }

  /** A client context resets that application's account; a workspace context, the directory account. */
  private resetTarget(input: HostedInput): { client_id?: string; workspace_id?: string } {
    return input.context.clientId ? { client_id: input.context.clientId } : { workspace_id: input.context.workspaceId ?? undefined };
  }

  private resetRequestPage(input: HostedInput, csrfToken: string, brand: string, error: string | null = null): string {
    return renderResetRequestPage({
      action: `${this.basePath}reset/`,
      csrfToken,
      next: input.next,
      context: input.context,
      brand,
      email: input.email,
      error,
      backHref: `${this.basePath}?${contextQuery(input)}`,
    });
  }

  private resetConfirmPage(input: HostedInput, csrfToken: string, brand: string, error: string | null = null): string {
    return renderResetConfirmPage({
      action: `${this.basePath}reset/confirm/`,
      csrfToken,
      next: input.next,
      context: input.context,
      brand,
      email: input.email ?? '',
      error,
    });
  }

  private verifyPage(
    input: HostedInput,
    csrfToken: string,
    brand: string,
    error: string | null = null,
    notice: string | null = null,
  ): string {
    return renderVerifyEmailPage({
      action: `${this.basePath}verify/`,
      resendAction: `${this.basePath}verify/resend/`,
      csrfToken,
      email: input.email ?? '',
      next: input.next,
      context: input.context,
      brand,
      error,
      notice,
    });
  }

  private async resolve(context: LoginContext): Promise<ResolvedContext | null> {
    if (context.clientId) {
      try {
        const client = await this.users.clientByPublicId(context.clientId);
        return { scope: { workspaceId: client.workspaceId, oauthClientId: client.id }, brand: client.name };
      } catch {
        return null;
      }
    }
    if (context.workspaceId && isUuid(context.workspaceId)) {
      const name = await this.users.workspaceName(context.workspaceId);
      if (name !== null) return { scope: { workspaceId: context.workspaceId }, brand: name };
    }
    return null;
  }
}

/** What the second-step form answered with: a passkey, a recovery code, or the code field. */
function secondStepAnswer(input: HostedInput): Omit<SecondStep, 'mfa_token'> {
  if (input.passkeyResponse !== undefined) return { passkey: parseJsonField(input.passkeyResponse) };
  if (input.recoveryCode !== undefined) return { recovery_code: input.recoveryCode };
  return { code: (input.code ?? '').trim() };
}

function wrongAnswerMessage(input: HostedInput): string {
  if (input.passkeyResponse !== undefined) return 'That passkey was not accepted. Try again or use another method.';
  if (input.recoveryCode !== undefined) return 'That recovery code is not valid.';
  return 'That code is not correct. Try the current one.';
}

/** Where the hosted pages are served; another SAML_IDP_LOGIN_URL path redirects here (EndUsersModule). */
export const HOSTED_LOGIN_PATH = '/auth/login/';

/** SAML_IDP_LOGIN_URL as a path with a trailing slash (an absolute URL means another host serves it). */
export function hostedBasePath(loginUrl: string): string {
  const path = loginUrl.startsWith('/') ? loginUrl : '/auth/login/';
  return path.endsWith('/') ? path : `${path}/`;
}

export function contextQuery(input: Pick<HostedInput, 'next' | 'context'>, opts: { withNext?: boolean } = {}): string {
  const q = new URLSearchParams(opts.withNext === false ? {} : { next: input.next });
  if (input.context.clientId) q.set('client_id', input.context.clientId);
  if (input.context.workspaceId) q.set('workspace_id', input.context.workspaceId);
  return q.toString();
}

export function hostedInput(source: unknown): HostedInput {
  const s = (source && typeof source === 'object' ? source : {}) as Record<string, unknown>;
  const str = (v: unknown, max: number) => (typeof v === 'string' ? v.slice(0, max) : undefined);
  return {
    next: safeNext(s.next),
    context: { clientId: str(s.client_id, 200) || null, workspaceId: str(s.workspace_id, 64) || null },
    email: str(s.email, 254),
    password: str(s.password, 1024),
    code: str(s.code, 32),
    newPassword: str(s.new_password, 1024),
    mfaToken: str(s.mfa_token, 200),
    stepUp: s.step_up === '1' || undefined,
    reauthenticate: s.prompt === 'login' || undefined,
    recoveryCode: str(s.recovery_code, 64),
    passkeyResponse: str(s.passkey_response, 65536),
  };
}
