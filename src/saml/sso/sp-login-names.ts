import { Injectable } from '@nestjs/common';
import { HostedLoginPort } from '../../hosted-login/hosted-login-ports';
import type { LoginAppNames } from '../../hosted-login/login-app-names';
import { TICKET_COOKIE } from './saml-sso.controller';
import { FINISH_PATH } from './saml-sso.service';
import { SsoRequestsRepository } from './sso-requests.repository';

/**
 * For the hosted login: when the sign-in continues an SSO request (next = the finish path), the
 * name of the SP that sent it, read from the parked request the browser's ticket cookie names and
 * only if it belongs to the workspace of the login link. The hosted login finds it by its mark (decision 0192).
 */
@Injectable()
@HostedLoginPort('login-app-names')
export class SpLoginNames implements LoginAppNames {
  constructor(private readonly requests: SsoRequestsRepository) {}

  async nameFor(next: string, workspaceId: string | null, cookies: Record<string, unknown>): Promise<string | null> {
    const ticket = cookies[TICKET_COOKIE];
    if (!workspaceId || !next.startsWith(FINISH_PATH) || typeof ticket !== 'string' || ticket.length > 200) return null;
    const pending = await this.requests.find(ticket);
    if (!pending || pending.workspaceId !== workspaceId) return null;
    const sp = await this.requests.findSp(pending.workspaceId, pending.serviceProviderId);
    return sp?.name ?? null;
  }
}
