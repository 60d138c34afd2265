import { Injectable } from '@nestjs/common';
import { HostedLoginPorts } from './hosted-login-ports';

/**
 * Routing to a company's identity provider (docs/sso-connections.md, "Domains and routing"): an
 * email at a domain the workspace verified for one of its SSO connections signs in there instead of
 * with a password. The SSO connections module sits above this one (it imports HostedLoginModule), so
 * its source declares itself with @HostedLoginPort('company-sign-in') (decision 0192); without one,
 * every address signs in with a password.
 */
export interface CompanySignIn {
  /** The SSO connection of the workspace that serves this address's verified domain, or null. */
  connectionFor(workspaceId: string, email: string): Promise<string | null>;
  /** Whether any address of the workspace is routed (the form then lets the password be left empty). */
  routesAny(workspaceId: string): Promise<boolean>;
}

/** The hosted login's view of the declared source (none: no routing). */
@Injectable()
export class CompanySignInPort implements CompanySignIn {
  constructor(private readonly ports: HostedLoginPorts) {}

  connectionFor(workspaceId: string, email: string): Promise<string | null> {
    return this.ports.ask<CompanySignIn, string | null>('company-sign-in', (s) => s.connectionFor(workspaceId, email), null);
  }

  routesAny(workspaceId: string): Promise<boolean> {
    return this.ports.ask<CompanySignIn, boolean>('company-sign-in', (s) => s.routesAny(workspaceId), false);
  }
}

/** The hosted page that hands the browser on to the connection's sign-in (see HostedLoginController.companySignIn). */
export const COMPANY_SIGN_IN_PAGE = 'sso/';

/** Where the connection's sign-in starts, continuing to `next` (the SSO connections' public route). */
export const connectionSignInPath = (connectionId: string, next: string) => `/auth/sso/${connectionId}/?${new URLSearchParams({ next })}`;
