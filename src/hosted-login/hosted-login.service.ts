import { Injectable } from '@nestjs/common';
import { DomainError } from '../common/errors';
import { isUuid } from '../common/ids';
import type { RequestMeta } from '../common/request-context';
import { EndUserRecord, EndUsersRepository } from '../end-user-directory/end-users.repository';
import { MfaChallengesService, methodsOf, SecondStep, WrongSecondFactor } from '../second-factor/mfa-challenges.service';
import { PasswordlessSignIn } from '../second-factor/passkeys/passwordless-sign-in.service';
import { parseJsonField } from '../second-factor/passkeys/webauthn-json';
import { SignInGate } from '../second-factor/sign-in-gate.service';
import { AuthRateLimiter } from '../common/rate-limit/auth-rate-limiter';
import { SessionsService } from '../sessions/sessions.service';
import { INVALID_CREDENTIALS_MESSAGE, SignInService } from '../end-users/sign-in.service';
import { BrowserSession, BrowserSessionsService } from './browser-sessions.service';
import { HostedContexts } from './hosted-contexts';
import { BrowserBinding, contextQuery, HOSTED_LOGIN_PATH, HostedInput } from './hosted-input';
import { INCOMPLETE_COMPANY_LINK, INCOMPLETE_LINK, pageOf, SignInResult, SignInView } from './hosted-outcome';
import { SignInContinuations } from './sign-in-continuation';
import { AuthorizationContinuationPort } from './authorization-continuation';
import { COMPANY_SIGN_IN_PAGE, CompanySignInPort, connectionSignInPath } from './company-sign-in';

// Where the hosted pages are served (the OpenID provider's authorization endpoint sends the browser here).
export { HOSTED_LOGIN_PATH } from './hosted-input';

/**
 * The hosted sign-in (GET form, POST password, second step, passkey, sign-out): signs people in
 * and answers what comes next as a SignInResult, which the controller draws. The link's context is
 * checked by HostedContexts; "verify your email first" and the password reset have their own
 * services (hosted-verification.service.ts, hosted-password-reset.service.ts).
 */
@Injectable()
export class HostedLoginService {
  constructor(
    private readonly contexts: HostedContexts,
    private readonly users: EndUsersRepository,
    private readonly signIn: SignInService,
    private readonly sessions: SessionsService,
    private readonly browser: BrowserSessionsService,
    private readonly continuations: SignInContinuations,
    private readonly mfa: MfaChallengesService,
    private readonly limiter: AuthRateLimiter,
    private readonly gate: SignInGate,
    private readonly passwordless: PasswordlessSignIn,
    private readonly authorization: AuthorizationContinuationPort,
    private readonly company: CompanySignInPort,
  ) {}

  async show(input: HostedInput, current: BrowserSession | null): Promise<SignInResult> {
    const resolved = await this.contexts.resolve(input.context);
    if (current && !input.reauthenticate && (!resolved || resolved.scope.workspaceId === current.workspaceId)) {
      // Step-up (a SAML SP asked for a second factor): the signed-in user owes the factor, not the password.
      if (input.stepUp && resolved && !current.amr.includes('mfa')) {
        const challenge = await this.stepUpChallenge(current);
        if (challenge) {
          return pageOf(200, await this.secondFactor(resolved.brand, challenge.mfa_token, challenge.methods, { after: 'step-up' }));
        }
      }
      if (input.next !== '/') return { kind: 'redirect', location: input.next };
      return pageOf(200, { page: 'signed-in', email: current.email, brand: resolved?.brand });
    }
    if (!resolved) return INCOMPLETE_LINK;
    // A hint (an application's login_hint, the page's email or login_hint) at a domain the workspace
    // verified for a connection skips the email step: the company's IdP at once (decision 0949). A GET
    // navigation, not a form's, so a redirect reaches the IdP without the hand-off page.
    const hinted = input.stepUp
      ? null
      : await this.company.connectionFor(resolved.scope.workspaceId, (input.email ?? '').trim().toLowerCase());
    if (hinted) return { kind: 'redirect', location: connectionSignInPath(hinted, destination(input)) };
    const companySignIn = await this.company.routesAny(resolved.scope.workspaceId);
    return pageOf(200, { page: 'login', brand: resolved.brand, signUp: resolved.signUp, companySignIn });
  }

  /**
   * The page between the form and an SSO connection's sign-in (decision 0441): the connection's
   * route checks the id and refuses an unknown one; `next` is the form's, already made safe.
   */
  async companySignIn(input: HostedInput, connectionId: unknown): Promise<SignInResult> {
    if (typeof connectionId !== 'string' || !isUuid(connectionId)) return INCOMPLETE_COMPANY_LINK;
    const resolved = await this.contexts.resolve(input.context);
    return pageOf(200, { page: 'company-sign-in', brand: resolved?.brand, location: connectionSignInPath(connectionId, input.next) });
  }

  async submit(
    input: HostedInput,
    request: RequestMeta,
    previous: BrowserSession | null = null,
    browser?: BrowserBinding,
  ): Promise<SignInResult> {
    const resolved = await this.contexts.resolve(input.context);
    if (!resolved) return INCOMPLETE_LINK;
    const email = (input.email ?? '').trim().toLowerCase();
    // An address at a domain the workspace verified for an SSO connection signs in at the company's
    // identity provider (decision 0441); a password typed beside it is not looked at.
    const connection = await this.company.connectionFor(resolved.scope.workspaceId, email);
    if (connection) return { kind: 'redirect', location: companySignInPage(input, connection) };
    let user;
    try {
      user = await this.signIn.checkPassword(resolved.scope, email, input.password ?? '', request);
    } catch (err) {
      if (!(err instanceof DomainError) || err.code !== 'invalid_credentials') throw err;
      const companySignIn = await this.company.routesAny(resolved.scope.workspaceId);
      return pageOf(401, {
        page: 'login',
        brand: resolved.brand,
        email,
        error: INVALID_CREDENTIALS_MESSAGE,
        signUp: resolved.signUp,
        companySignIn,
      });
    }
    // Nothing is asserted to a service provider for an address nobody has proven to own. The
    // password is checked, so the sign-in waits for the code instead of asking for it again.
    if (!user.emailVerified) {
      const continuation =
        typeof browser?.csrfCookie === 'string'
          ? this.continuations.issue({ userId: user.id, workspaceId: user.workspaceId }, browser.csrfCookie)
          : undefined;
      return {
        ...pageOf<SignInView>(403, { page: 'verify-email', brand: resolved.brand, email }),
        ...(continuation ? { continuation: { set: continuation } } : {}),
      };
    }
    return this.completeSignIn(user, input, resolved.brand, request, previous);
  }

  /**
   * The account is known (password checked, email verified). A second factor, or a step-up the
   * workspace's policy asks for, comes before any session exists; otherwise the browser session
   * starts. Every path that signs a person in on these pages ends here.
   */
  async completeSignIn(
    user: EndUserRecord,
    input: HostedInput,
    brand: string,
    request: RequestMeta,
    previous: BrowserSession | null,
  ): Promise<SignInResult> {
    let owed;
    try {
      owed = await this.gate.afterPassword(user, 'browser', request);
    } catch (err) {
      if (!(err instanceof DomainError) || err.code !== 'sign_in_blocked') throw err;
      return pageOf(403, { page: 'login', brand, email: user.email, error: err.message });
    }
    if (owed) return pageOf(200, await this.secondFactor(brand, owed.mfa_token, owed.methods, { after: 'password' }));
    return this.openBrowserSession(user, ['pwd'], input, request, previous);
  }

  /** The second step of the hosted sign-in: an authenticator code, a recovery code or a passkey against the mfa_token. */
  async secondStep(input: HostedInput, request: RequestMeta, previous: BrowserSession | null): Promise<SignInResult> {
    const resolved = await this.contexts.resolve(input.context);
    if (!resolved) return INCOMPLETE_LINK;
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
        const view = await this.secondFactor(resolved.brand, input.mfaToken ?? '', err.methods, {
          error: wrongAnswerMessage(input),
          recoveryFirst: byRecovery,
        });
        return pageOf(401, view);
      }
      if (err.code === 'rate_limited') throw err;
      return pageOf(401, { page: 'login', brand: resolved.brand, error: 'This sign-in has expired. Sign in with your password again.' });
    }
    const user = passed.user;
    if (!user.isActive || user.workspaceId !== resolved.scope.workspaceId) return INCOMPLETE_LINK;
    const policy = passed.reason === 'step_up' ? { action: 'challenge' as const, kinds: passed.anomalyKinds } : undefined;
    return this.openBrowserSession(user, passed.amr, input, request, previous, policy);
  }

  /** WebAuthn options for "Continue with a passkey" on the sign-in form of this context (JSON for the page's script). */
  async passkeyOptions(input: HostedInput): Promise<{ status: number; body: unknown }> {
    const resolved = await this.contexts.resolve(input.context);
    if (!resolved) return { status: 400, body: { error: 'invalid_client', message: 'This sign-in link does not name an application' } };
    return { status: 200, body: await this.passwordless.options(resolved.scope) };
  }

  /** Sign-in with a discoverable passkey alone (decision 0323). */
  async passkeySignIn(input: HostedInput, request: RequestMeta, previous: BrowserSession | null): Promise<SignInResult> {
    const resolved = await this.contexts.resolve(input.context);
    if (!resolved) return INCOMPLETE_LINK;
    let signedIn;
    try {
      signedIn = await this.passwordless.verify(resolved.scope, parseJsonField(input.passkeyResponse), request);
    } catch (err) {
      if (!(err instanceof DomainError) || err.status >= 500 || err.code === 'rate_limited') throw err;
      const blocked = err.code === 'sign_in_blocked';
      const message = blocked ? err.message : 'That passkey was not accepted for this application. Sign in with your password.';
      return pageOf(blocked ? 403 : 401, { page: 'login', brand: resolved.brand, error: message });
    }
    return this.openBrowserSession(signedIn.user, signedIn.amr, input, request, previous, signedIn.policy);
  }

  /** Signs the browser out and shows the sign-in form of the same application again. */
  async signOut(current: BrowserSession | null, request: RequestMeta, input?: HostedInput): Promise<SignInResult> {
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
    return { kind: 'redirect', location: `${HOSTED_LOGIN_PATH}${context}`, clearSession: true };
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
  ): Promise<SignInResult> {
    const cookie = this.browser.newToken();
    const { session } = await this.signIn.startSession(
      user,
      { kind: 'browser', expiresAt: cookie.expiresAt, browserTokenHash: cookie.hash, amr, policy },
      request,
      (tx, _s, now) =>
        previous
          ? this.sessions.revokeIn(tx, previous.workspaceId, { sessionId: previous.sessionId }, 'replaced', now)
          : Promise.resolve([]),
    );
    const next = destination(input);
    // An OpenID authorization request waiting for this sign-in is answered now (decision 0919).
    const answered = await this.authorization.after(next, {
      sessionId: session.id,
      userId: user.id,
      workspaceId: user.workspaceId,
      oauthClientId: user.oauthClientId,
      email: user.email,
      authenticatedAt: session.createdAt,
      amr: session.amr,
    });
    return { kind: 'redirect', location: answered ?? next, sessionToken: cookie.token };
  }

  /** The second step's page; with a passkey among the methods, its ceremony starts here (options in the page). */
  private async secondFactor(
    brand: string,
    mfaToken: string,
    methods: string[],
    opts: { error?: string; recoveryFirst?: boolean; after?: 'password' | 'step-up' } = {},
  ): Promise<SignInView> {
    const passkeyOptions = methods.includes('passkey')
      ? await this.mfa.passkeyOptions(mfaToken, 'browser').catch(() => undefined)
      : undefined;
    return {
      page: 'second-factor',
      brand,
      mfaToken,
      methods,
      passkeyOptions,
      error: opts.error ?? null,
      recoveryFirst: opts.recoveryFirst ?? false,
      after: opts.after,
    };
  }
}

/**
 * Where a completed sign-in goes: `next`, or without one this page again, which then shows "signed
 * in to <application>". Never the service's own landing page (`/`), which is for developers; sending
 * the browser back to the application's redirect URI is the OpenID Connect authorization flow's job.
 */
function destination(input: HostedInput): string {
  if (input.next !== '/') return input.next;
  return `${HOSTED_LOGIN_PATH}?${contextQuery(input, { withNext: false })}`;
}

/**
 * The hosted page that hands the browser on to the connection (a redirect could not: CSP form-action
 * stops a form's redirects at this service's origin). It keeps the link's context, for its brand, and
 * where the sign-in goes after the company's identity provider.
 */
function companySignInPage(input: HostedInput, connectionId: string): string {
  const query = new URLSearchParams(contextQuery({ next: destination(input), context: input.context }));
  query.set('connection', connectionId);
  return `${HOSTED_LOGIN_PATH}${COMPANY_SIGN_IN_PAGE}?${query}`;
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
