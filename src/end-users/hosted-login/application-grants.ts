import type { RequestMeta } from '../../common/request-context';

/**
 * The applications a person allowed (the OpenID provider's consents, decision 0915), listed and
 * revocable on the hosted sessions page. Provided by OidcModule (global); absent, the page shows
 * sessions only.
 */
export const APPLICATION_GRANTS = Symbol('APPLICATION_GRANTS');

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
