import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { parse as parseQuery } from 'node:querystring';
import { Clock } from '../../common/clock';
import { sha256Hex } from '../../common/crypto/tokens';
import type { RequestMeta } from '../../common/request-context';
import { UnitOfWork } from '../../database/unit-of-work';
import type { BrowserSession } from '../../hosted-login/browser-sessions.service';
import type { AuthorizationContinuation } from '../../hosted-login/authorization-continuation';
import { HostedLoginPort } from '../../hosted-login/hosted-login-ports';
import { HOSTED_LOGIN_PATH } from '../../hosted-login/hosted-login.service';
import { renderErrorPage } from '../../common/html/error-page.view';
import { OAuthServerInfo } from '../../oauth/discovery/oauth-server-info';
import { ApplicationClientStore } from '../application-client.store';
import { IdTokensService, subjectFor } from '../id-tokens.service';
import { OidcRepository } from '../oidc.repository';
import { ACR_MFA, ACR_SFA } from '../scopes';
import { renderConsentPage } from '../views/consent-page.view';
import {
  AUTH_AFTER,
  AuthorizationRequest,
  AuthorizeError,
  AuthorizeErrorCode,
  parseAuthorizationRequest,
  responseLocation,
  singleValued,
  STEP_UP_TRIED,
} from './authorization-request';

export type AuthorizeOutcome =
  | { kind: 'redirect'; location: string }
  /** `formTargets`: where the page's form may end, through redirects (the client's redirect URI). */
  | { kind: 'page'; status: number; html: string; formTargets?: string[] };

/** An authorization code lives one minute (RFC 6749 §4.1.2: "a maximum lifetime of 10 minutes is RECOMMENDED"). */
export const CODE_TTL_MS = 60_000;
/** The path the hosted login sends the browser back to (a relative `next`, which the hosted login accepts). */
export const AUTHORIZE_PATH = '/oauth/authorize';
/** What the hosted login's `next` holds at most (safe-next.ts). */
const MAX_NEXT = 2048;
/** Spent codes are kept this long past their expiry, so a late replay still revokes what they issued. */
const CODE_KEPT_MS = 10 * 60_000;
const PURGE_EVERY_MS = 60_000;

/**
 * The authorization endpoint (OpenID Connect Core §3.1.2, RFC 6749 §4.1, RFC 7636): validates the
 * request, sends the browser through the hosted login when it has no fresh enough session for the
 * application's workspace, asks a third-party application's consent once, and answers the
 * client's redirect URI with a single-use code (or an error, RFC 6749 §4.1.2.1).
 */
@Injectable()
@HostedLoginPort('authorization-continuation')
export class AuthorizeService implements AuthorizationContinuation {
  private lastPurge = 0;

  constructor(
    private readonly store: ApplicationClientStore,
    private readonly repository: OidcRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly server: OAuthServerInfo,
    private readonly idTokens: IdTokensService,
  ) {}

  /**
   * A sign-in on the hosted pages whose `next` is an authorization request (decision 0919): the
   * answer the browser would get coming back to GET /oauth/authorize with the session just opened,
   * computed now by authorize() itself (every check of the endpoint, in one place). A redirect (the
   * client's redirect URI with a code or an error, or the hosted login for a step-up) is where the
   * sign-in goes; a page (the consent screen, an error page) is left to the endpoint: null, and the
   * browser follows `next` as before.
   */
  async after(next: string, session: BrowserSession): Promise<string | null> {
    if (!next.startsWith(`${AUTHORIZE_PATH}?`)) return null;
    // Parsed as Express's default query parser parses the endpoint's own query (node:querystring).
    const outcome = await this.authorize(parseQuery(next.slice(AUTHORIZE_PATH.length + 1)), session, '');
    return outcome.kind === 'redirect' ? outcome.location : null;
  }

  async authorize(source: unknown, current: BrowserSession | null, csrfToken: string): Promise<AuthorizeOutcome> {
    const parsed = await this.parse(source);
    if (!parsed.ok) return 'page' in parsed ? errorPage(parsed.page) : this.refuse(parsed.redirect);
    const request = parsed.request;
    const session = current && current.workspaceId === request.client.workspaceId ? current : null;
    const hinted = request.idTokenHint === null ? null : await this.hintedSubject(request);
    if (hinted === INVALID_HINT) {
      return this.refuse(errorOf(request, 'invalid_request', 'id_token_hint is not an ID token this server issued to the application'));
    }

    if (!session || this.mustAuthenticateAgain(request, session)) {
      if (request.prompt.has('none')) return this.refuse(errorOf(request, 'login_required', 'the person is not signed in (prompt=none)'));
      return this.toHostedLogin(request, { reauthenticate: session !== null });
    }
    if (hinted !== null && hinted !== subjectFor(request.client, session.userId)) {
      if (request.prompt.has('none')) {
        return this.refuse(errorOf(request, 'login_required', 'the person signed in is not the one id_token_hint names'));
      }
      // Once: a person who signs in again as someone else after being asked is answered as who they are (decision 0937).
      if (request.authAfter === null) return this.toHostedLogin(request, { reauthenticate: true });
    }
    if (this.wantsStepUp(request, session)) {
      if (!request.prompt.has('none')) return this.toHostedLogin(request, { stepUp: true });
    }
    if (!request.client.firstParty) {
      const consent = await this.repository.consent(session.workspaceId, session.userId, request.client.id);
      const covered = consent !== null && request.scope.split(' ').every((s) => consent.scope.split(' ').includes(s));
      if (!covered || request.prompt.has('consent')) {
        if (request.prompt.has('none')) {
          return this.refuse(errorOf(request, 'consent_required', 'the application needs the person to consent'));
        }
        return this.consentPage(request, session, csrfToken);
      }
    }
    return this.issueCode(request, session);
  }

  /**
   * The answer of the consent screen. Allow: the consent is remembered (oauth_consent_grant) and
   * the request continues; deny: access_denied to the client.
   */
  async decide(source: unknown, current: BrowserSession | null, request: RequestMeta): Promise<AuthorizeOutcome> {
    const { params } = singleValued(source);
    const { decision, csrf_token: _csrf, ...authorization } = params;
    const parsed = await this.parse(authorization);
    if (!parsed.ok) return 'page' in parsed ? errorPage(parsed.page) : this.refuse(parsed.redirect);
    const req = parsed.request;
    const session = current && current.workspaceId === req.client.workspaceId ? current : null;
    if (!session) return this.toHostedLogin(req, { reauthenticate: false });
    if (decision !== 'allow') return this.refuse(errorOf(req, 'access_denied', 'the person did not allow the application'));
    const now = this.clock.now();
    await this.uow.run(async (tx, events) => {
      await this.repository.saveConsent(tx, {
        workspaceId: session.workspaceId,
        userId: session.userId,
        clientId: req.client.id,
        scope: req.scope,
        grantedAt: now,
      });
      events.emit('oauth_consent_grant', {
        workspaceId: session.workspaceId,
        actor: { type: 'end_user', id: session.userId, email: session.email },
        target: { type: 'OAuthClient', id: req.client.id },
        oauthClientId: req.client.id,
        request,
        metadata: { client_id: req.client.clientId, scope: req.scope },
      });
    });
    const { prompt: _prompt, ...rest } = req.params;
    // With the consent stored, the request is answered at once (decision 0919); a page (which needs
    // this browser's form token) is left to the endpoint the browser is sent back to.
    const answered = await this.authorize(rest, session, '');
    return answered.kind === 'redirect' ? answered : { kind: 'redirect', location: this.authorizeUrl(rest) };
  }

  private async parse(source: unknown) {
    const { params } = singleValued(source);
    const client = params.client_id ? await this.store.application(params.client_id) : null;
    return parseAuthorizationRequest(source, client);
  }

  /**
   * prompt=login, select_account, max_age exceeded, or a re-authentication this server asked for that
   * has not happened yet. Compared in milliseconds, so max_age=0 always asks again (decision 0938).
   */
  private mustAuthenticateAgain(request: AuthorizationRequest, session: BrowserSession): boolean {
    const authTime = session.authenticatedAt.getTime();
    if (request.authAfter !== null) {
      // The browser came back from the re-authentication this server asked for: that is its answer.
      return authTime < request.authAfter;
    }
    if (request.prompt.has('login') || request.prompt.has('select_account')) return true;
    if (request.maxAge === null) return false;
    return request.maxAge === 0 || this.clock.now().getTime() - authTime > request.maxAge * 1000;
  }

  /**
   * The subject of a valid id_token_hint (our signature, issued to this client; an expired one is
   * still a hint, OpenID Connect Core §3.1.2.1), or INVALID_HINT.
   */
  private async hintedSubject(request: AuthorizationRequest): Promise<string> {
    const hint = await this.idTokens.readHint(request.idTokenHint!);
    return hint !== null && hint.aud === request.client.clientId ? hint.sub : INVALID_HINT;
  }

  /** acr_values asks for the multi-factor class only, the session has not met it, and the hosted login has not been asked yet. */
  private wantsStepUp(request: AuthorizationRequest, session: BrowserSession): boolean {
    if (request.stepUpTried || session.amr.includes('mfa')) return false;
    return request.acrValues.includes(ACR_MFA) && !request.acrValues.includes(ACR_SFA);
  }

  /**
   * To the hosted login (and its verification, reset and second-factor pages), which sends the
   * browser back here once signed in. A forced re-authentication comes back with auth_after, a
   * step-up with step_up_tried, so neither can loop.
   */
  private toHostedLogin(request: AuthorizationRequest, how: { reauthenticate?: boolean; stepUp?: boolean }): AuthorizeOutcome {
    const { prompt, ...rest } = request.params;
    const back: Record<string, string> = { ...rest };
    const remaining = (prompt ?? '')
      .split(' ')
      .filter((p) => p && p !== 'login' && p !== 'select_account')
      .join(' ');
    if (remaining) back.prompt = remaining;
    if (how.reauthenticate || request.prompt.has('login') || request.maxAge !== null) {
      back[AUTH_AFTER] = String(this.clock.now().getTime());
    }
    if (how.stepUp) back[STEP_UP_TRIED] = '1';
    const next = this.authorizeUrl(back);
    if (next.length > MAX_NEXT) return this.refuse(errorOf(request, 'invalid_request', 'the authorization request is too large'));
    const login = new URLSearchParams({ client_id: request.client.clientId, next });
    if (request.loginHint) login.set('email', request.loginHint);
    if (how.reauthenticate || request.prompt.has('login') || request.prompt.has('select_account')) login.set('prompt', 'login');
    if (how.stepUp) login.set('step_up', '1');
    return { kind: 'redirect', location: `${HOSTED_LOGIN_PATH}?${login.toString()}` };
  }

  private authorizeUrl(params: Record<string, string>): string {
    return `${AUTHORIZE_PATH}?${new URLSearchParams(params).toString()}`;
  }

  private consentPage(request: AuthorizationRequest, session: BrowserSession, csrfToken: string): AuthorizeOutcome {
    const { prompt: _prompt, ...params } = request.params;
    return {
      kind: 'page',
      status: 200,
      formTargets: [request.redirectTo],
      html: renderConsentPage({
        action: `${AUTHORIZE_PATH}/consent`,
        csrfToken,
        appName: request.client.name,
        email: session.email,
        scopes: request.scope.split(' '),
        params,
      }),
    };
  }

  private async issueCode(request: AuthorizationRequest, session: BrowserSession): Promise<AuthorizeOutcome> {
    const code = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    await this.repository.insertCode({
      codeHash: sha256Hex(code),
      workspaceId: session.workspaceId,
      clientId: request.client.id,
      userId: session.userId,
      browserSessionId: session.sessionId,
      redirectUri: request.redirectUri,
      scope: request.scope,
      nonce: request.nonce,
      codeChallenge: request.codeChallenge,
      authTime: session.authenticatedAt,
      amr: session.amr,
      expiresAt: new Date(now.getTime() + CODE_TTL_MS),
    });
    if (now.getTime() - this.lastPurge > PURGE_EVERY_MS) {
      this.lastPurge = now.getTime();
      await this.repository.purgeCodes(new Date(now.getTime() - CODE_KEPT_MS));
    }
    // RFC 9207: the issuer beside the code, so a client talking to several servers knows whose code it is.
    return {
      kind: 'redirect',
      location: responseLocation(request.redirectTo, { code, state: request.state, iss: this.server.issuer }),
    };
  }

  private refuse(error: AuthorizeError): AuthorizeOutcome {
    return {
      kind: 'redirect',
      location: responseLocation(error.redirectUri, {
        error: error.error,
        error_description: error.description,
        state: error.state,
        iss: this.server.issuer,
      }),
    };
  }
}

function errorOf(request: AuthorizationRequest, error: AuthorizeErrorCode, description: string): AuthorizeError {
  return { redirectUri: request.redirectTo, state: request.state, error, description };
}

/** An id_token_hint that does not verify (never a subject: subjects are ids or base64url). */
const INVALID_HINT = '\u0000invalid';

/** RFC 6749 §4.1.2.1: without a trusted redirect URI the person is told, and nothing is redirected. */
function errorPage(message: string): AuthorizeOutcome {
  return { kind: 'page', status: 400, html: renderErrorPage({ status: 400, title: 'This sign-in link is not valid', message }) };
}
