import { Injectable } from '@nestjs/common';
import type { EndUserPrincipal } from '../common/auth/principal';
import type { RequestMeta } from '../common/request-context';
import { SessionsService } from '../sessions/sessions.service';
import { ApplicationGrantsPort } from './application-grants';
import type { BrowserSession } from './browser-sessions.service';
import { HostedContexts } from './hosted-contexts';
import type { HostedRedirect, HostedResult } from './hosted-outcome';
import type { SessionsPageModel } from './views/sessions-page.view';
import { ACCOUNT_PAGES } from './views/account-links';

export const SESSIONS_PAGE = ACCOUNT_PAGES.sessions;
const LOGIN_PAGE = '/auth/login/';

/** What the sessions page lists: the user's sessions and the applications they allowed. */
export type SessionsView = Pick<SessionsPageModel, 'email' | 'brand' | 'sessions' | 'applications' | 'notice'>;
export type SessionsResult = HostedResult<SessionsView>;

/** Where the hosted pages came from: the login context to return through. */
export interface SessionsContext {
  workspaceId: string | null;
  clientId: string | null;
}

/**
 * The hosted "your sessions" page: the alert mail's link. The browser's hosted-login session
 * stands for the user (as an end-user principal); without one the user signs in first and
 * comes back here. Answers a SessionsResult, which the controller draws.
 */
@Injectable()
export class HostedSessionsService {
  constructor(
    private readonly sessions: SessionsService,
    private readonly applicationGrants: ApplicationGrantsPort,
    private readonly contexts: HostedContexts,
  ) {}

  async show(session: BrowserSession | null, context: SessionsContext, notice: string | null): Promise<SessionsResult> {
    if (!session) return { kind: 'redirect', location: loginFirst(context) };
    const [sessions, applications, brand] = await Promise.all([
      this.sessions.list(principalOf(session)),
      this.applicationGrants.grants?.list(session.workspaceId, session.userId) ?? Promise.resolve([]),
      this.contexts.brandOf(session),
    ]);
    return { kind: 'page', status: 200, view: { email: session.email, brand, sessions, applications, notice } };
  }

  /** Takes back what the person allowed an application (its consent and its sessions). */
  async revokeApplication(
    session: BrowserSession | null,
    context: SessionsContext,
    applicationId: unknown,
    meta: RequestMeta,
  ): Promise<HostedRedirect> {
    if (!session) return { kind: 'redirect', location: loginFirst(context) };
    const grants = this.applicationGrants.grants;
    if (grants && typeof applicationId === 'string') {
      await grants.revoke(session.workspaceId, session.userId, applicationId, meta);
    }
    return { kind: 'redirect', location: `${SESSIONS_PAGE}?app_revoked=1${contextParams(context, '&')}` };
  }

  /** Signs one session out; signing out this browser's own session ends at the login page. */
  async revoke(session: BrowserSession | null, context: SessionsContext, sessionId: unknown, meta: RequestMeta): Promise<HostedRedirect> {
    if (!session) return { kind: 'redirect', location: loginFirst(context) };
    await this.sessions.revokeSession(principalOf(session), typeof sessionId === 'string' ? sessionId : '', meta);
    if (sessionId === session.sessionId) return { kind: 'redirect', location: loginFirst(context), clearSession: true };
    return { kind: 'redirect', location: `${SESSIONS_PAGE}?signed_out=1${contextParams(context, '&')}` };
  }
}

/** The browser session as an end-user principal (the hosted pages act as the signed-in user). */
export function principalOf(session: BrowserSession): EndUserPrincipal {
  return {
    kind: 'end-user',
    userId: session.userId,
    sessionId: session.sessionId,
    workspaceId: session.workspaceId,
    oauthClientId: session.oauthClientId,
    jti: '',
  };
}

function contextParams(context: SessionsContext, lead: '?' | '&'): string {
  const q = new URLSearchParams();
  if (context.clientId) q.set('client_id', context.clientId);
  else if (context.workspaceId) q.set('workspace_id', context.workspaceId);
  const s = q.toString();
  return s ? `${lead}${s}` : '';
}

export function loginFirst(context: SessionsContext, page: string = SESSIONS_PAGE): string {
  const q = new URLSearchParams({ next: page });
  if (context.clientId) q.set('client_id', context.clientId);
  else if (context.workspaceId) q.set('workspace_id', context.workspaceId);
  return `${LOGIN_PAGE}?${q.toString()}`;
}
