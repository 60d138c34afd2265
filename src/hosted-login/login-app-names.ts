import { Injectable } from '@nestjs/common';
import { HostedLoginPorts } from './hosted-login-ports';

/**
 * Who the hosted login is signing the user in *for*, when that is not the workspace or client in
 * the link: the SAML module names the service provider whose request is waiting (decision 0022).
 * The SAML module sits above this one (it imports HostedLoginModule), so it cannot be injected here:
 * its source declares itself with @HostedLoginPort('login-app-names') (decision 0192). Without one,
 * the page names the workspace or client as before.
 */
export const LOGIN_APP_NAMES = Symbol('LOGIN_APP_NAMES');

export interface LoginAppNames {
  /** The application's name for a sign-in that continues to `next` in `workspaceId`, or null. */
  nameFor(next: string, workspaceId: string | null, cookies: Record<string, unknown>): Promise<string | null>;
}

/** The hosted login's view of the declared source (none: no name). */
@Injectable()
export class LoginAppNamesPort implements LoginAppNames {
  constructor(private readonly ports: HostedLoginPorts) {}

  nameFor(next: string, workspaceId: string | null, cookies: Record<string, unknown>): Promise<string | null> {
    return this.ports.ask<LoginAppNames, string | null>('login-app-names', (s) => s.nameFor(next, workspaceId, cookies), null);
  }
}
