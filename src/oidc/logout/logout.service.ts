import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import type { RequestMeta } from '../../common/request-context';
import { UnitOfWork } from '../../database/unit-of-work';
import type { BrowserSession } from '../../hosted-login/browser-sessions.service';
import { renderErrorPage } from '../../common/html/error-page.view';
import { SessionsService } from '../../sessions/sessions.service';
import type { DeniedToken } from '../../sessions/tokens/token-denylist.service';
import { ApplicationClientStore } from '../application-client.store';
import { responseLocation, singleValued } from '../authorize/authorization-request';
import { IdTokensService, subjectFor } from '../id-tokens.service';
import { AppClient, OidcRepository } from '../oidc.repository';
import { renderLogoutConfirmPage, renderSignedOutPage } from '../views/logout-pages.view';

export type LogoutOutcome = { clearSession: boolean } & (
  | { kind: 'redirect'; location: string }
  /** `formTargets`: where the page's form may end, through redirects (the registered post-logout URI). */
  | { kind: 'page'; status: number; html: string; formTargets?: string[] }
);

export const LOGOUT_PATH = '/oauth/logout';
const PARAMS = ['id_token_hint', 'post_logout_redirect_uri', 'state', 'client_id', 'logout_hint', 'ui_locales'] as const;
/** The longest value each parameter may have (the document states the same bounds). */
export const LOGOUT_PARAMETER_LIMITS: Record<(typeof PARAMS)[number], number> = {
  id_token_hint: 8192,
  client_id: 200,
  post_logout_redirect_uri: 2000,
  state: 1024,
  ui_locales: 64,
  logout_hint: 254,
};

const refuse = (message: string): LogoutOutcome => ({
  kind: 'page',
  status: 400,
  clearSession: false,
  html: renderErrorPage({ status: 400, title: 'This sign-out link is not valid', message }),
});

/**
 * OpenID Connect RP-Initiated Logout 1.0: ends the browser's session on the hosted login (and the
 * application sessions it led to), then returns to a registered post_logout_redirect_uri with
 * `state`. A request whose id_token_hint names this browser's user ends it at once; any other
 * asks the person first (§2: the OP should confirm a logout it cannot attribute).
 */
@Injectable()
export class LogoutService {
  constructor(
    private readonly idTokens: IdTokensService,
    private readonly store: ApplicationClientStore,
    private readonly repository: OidcRepository,
    private readonly sessions: SessionsService,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async logout(
    source: unknown,
    current: BrowserSession | null,
    form: { confirmed: boolean; csrfToken: string },
    request: RequestMeta,
  ): Promise<LogoutOutcome> {
    const { params: all, repeated } = singleValued(source);
    // A repeated parameter is ambiguous (RFC 6749 §3.1, which the authorization endpoint applies too).
    const ambiguous = repeated.find((name) => (PARAMS as readonly string[]).includes(name));
    if (ambiguous) return refuse(`The sign-out request names ${ambiguous} more than once.`);
    const tooLong = PARAMS.find((p) => all[p] !== undefined && all[p].length > LOGOUT_PARAMETER_LIMITS[p]);
    if (tooLong) return refuse(`The sign-out request's ${tooLong} is longer than ${LOGOUT_PARAMETER_LIMITS[tooLong]} characters.`);
    const params = Object.fromEntries(PARAMS.filter((p) => all[p] !== undefined).map((p) => [p, all[p]]));
    const hint = params.id_token_hint ? await this.idTokens.readHint(params.id_token_hint) : null;
    if (params.id_token_hint && !hint) return refuse('The sign-out request carries an ID token this service did not issue.');
    if (params.client_id && hint && hint.aud !== params.client_id) return refuse('The sign-out request names two different applications.');
    const clientId = params.client_id ?? hint?.aud ?? null;
    const app = clientId ? await this.store.application(clientId) : null;
    if (clientId && !app) return refuse('The application that sent you here is not registered with this service.');
    const returnTo = params.post_logout_redirect_uri ?? null;
    if (returnTo && (!app || !app.postLogoutRedirectUris.includes(returnTo))) {
      return refuse('The address this sign-out would return to is not registered for the application.');
    }
    const session = current && (!app || app.workspaceId === current.workspaceId) ? current : null;
    if (session) {
      const attributed = hint !== null && app !== null && hint.sub === subjectFor(app, session.userId);
      if (!attributed && !form.confirmed) {
        return {
          kind: 'page',
          status: 200,
          clearSession: false,
          formTargets: returnTo ? [returnTo] : [],
          html: renderLogoutConfirmPage({
            action: LOGOUT_PATH,
            csrfToken: form.csrfToken,
            email: session.email,
            appName: app?.name ?? null,
            params,
          }),
        };
      }
      await this.endBrowserSession(session, app, request);
    }
    if (returnTo) {
      return { kind: 'redirect', location: responseLocation(returnTo, { state: params.state ?? null }), clearSession: session !== null };
    }
    return { kind: 'page', status: 200, clearSession: session !== null, html: renderSignedOutPage(app?.name ?? null) };
  }

  /** The browser session and every application session it led to end in one transaction; their tokens go on the denylist. */
  private async endBrowserSession(session: BrowserSession, app: AppClient | null, request: RequestMeta): Promise<void> {
    const now = this.clock.now();
    const denied = await this.uow.run(async (tx, events) => {
      const ids = [session.sessionId, ...(await this.repository.appSessionsOfBrowser(tx, session.workspaceId, session.sessionId))];
      const tokens: DeniedToken[] = [];
      for (const sessionId of ids) tokens.push(...(await this.sessions.revokeIn(tx, session.workspaceId, { sessionId }, 'rp_logout', now)));
      events.emit('logout', {
        workspaceId: session.workspaceId,
        actor: { type: 'end_user', id: session.userId, email: session.email },
        target: { type: 'EndUserSession', id: session.sessionId },
        oauthClientId: app?.id ?? session.oauthClientId,
        request,
        metadata: { reason: 'rp_logout', client_id: app?.clientId ?? null, sessions_ended: ids.length },
      });
      return tokens;
    });
    await this.sessions.mirrorDenied(denied);
  }
}
