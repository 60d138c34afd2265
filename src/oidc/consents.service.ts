import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { isUuid } from '../common/ids';
import type { RequestMeta } from '../common/request-context';
import { UnitOfWork } from '../database/unit-of-work';
import type { ApplicationGrants, ApplicationGrantView } from '../hosted-login/application-grants';
import { HostedLoginPort } from '../hosted-login/hosted-login-ports';
import { SessionsService } from '../sessions/sessions.service';
import type { DeniedToken } from '../sessions/tokens/token-denylist.service';
import { OidcRepository } from './oidc.repository';

/** The consents people gave third-party applications, for the hosted sessions page (decision 0915). */
@Injectable()
@HostedLoginPort('application-grants')
export class ConsentsService implements ApplicationGrants {
  constructor(
    private readonly repository: OidcRepository,
    private readonly sessions: SessionsService,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async list(workspaceId: string, userId: string): Promise<ApplicationGrantView[]> {
    const rows = await this.repository.listConsents(workspaceId, userId);
    return rows.map((r) => ({ id: r.clientId, name: r.name, scope: r.scope, grantedAt: r.grantedAt }));
  }

  /** Revoking a consent also ends the application's sessions of this person: its refresh tokens stop working at once. */
  async revoke(workspaceId: string, userId: string, applicationId: string, request: RequestMeta): Promise<boolean> {
    if (!isUuid(applicationId)) return false;
    const now = this.clock.now();
    const outcome = await this.uow.run(async (tx, events) => {
      if (!(await this.repository.deleteConsent(tx, workspaceId, userId, applicationId))) {
        return { found: false, denied: [] as DeniedToken[] };
      }
      const denied: DeniedToken[] = [];
      for (const sessionId of await this.repository.appSessionsOfClient(tx, workspaceId, userId, applicationId)) {
        denied.push(...(await this.sessions.revokeIn(tx, workspaceId, { sessionId }, 'consent_revoked', now)));
      }
      events.emit('oauth_token_revoke', {
        workspaceId,
        actor: { type: 'end_user', id: userId },
        target: { type: 'OAuthClient', id: applicationId },
        oauthClientId: applicationId,
        request,
        message: 'Consent revoked: the application can no longer act for this person',
        metadata: { reason: 'consent_revoked', tokens_revoked: denied.length },
      });
      return { found: true, denied };
    });
    await this.sessions.mirrorDenied(outcome.denied);
    return outcome.found;
  }
}
