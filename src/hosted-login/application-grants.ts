import { Injectable } from '@nestjs/common';
import type { RequestMeta } from '../common/request-context';

/**
 * The applications a person allowed (the OpenID provider's consents, decision 0915), listed and
 * revocable on the hosted sessions page. The OpenID provider sits above this module (it imports
 * HostedLoginModule), so it fills ApplicationGrantsSlot at start-up, as SAML fills LoginAppNamesSlot;
 * unfilled, the page shows sessions only.
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
@Injectable()
export class ApplicationGrantsSlot {
  private source: ApplicationGrants | null = null;

  fill(source: ApplicationGrants): void {
    this.source = source;
  }

  /** The filled source, or null when no OpenID provider runs. */
  get grants(): ApplicationGrants | null {
    return this.source;
  }
}
