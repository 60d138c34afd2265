import { Injectable } from '@nestjs/common';
import type { RequestMeta } from '../common/request-context';
import { HostedLoginPorts } from './hosted-login-ports';

/**
 * The applications a person allowed (the OpenID provider's consents, decision 0915), listed and
 * revocable on the hosted sessions page. The OpenID provider sits above this module (it imports
 * HostedLoginModule), so its source declares itself with @HostedLoginPort('application-grants') (decision 0192);
 * without one, the page shows sessions only.
 */

export interface ApplicationGrantView {
  /** The application's row id (what the revoke form posts). */
  id: string;
  name: string;
  scope: string;
  grantedAt: Date;
}

export interface ApplicationGrants {
  list(workspaceId: string, userId: string): Promise<ApplicationGrantView[]>;
  /** Forgets the consent and ends the application's sessions of this person; false when there was none. */
  revoke(workspaceId: string, userId: string, applicationId: string, request: RequestMeta): Promise<boolean>;
}

/** The port the OpenID provider fills with its consents (the last one set wins). */
/** The hosted login's view of the declared source (decision 0192). */
@Injectable()
export class ApplicationGrantsPort {
  constructor(private readonly ports: HostedLoginPorts) {}

  /** The declared source, or null when no OpenID provider runs. */
  get grants(): ApplicationGrants | null {
    return this.ports.source<ApplicationGrants>('application-grants');
  }
}
