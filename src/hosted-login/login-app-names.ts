import { Injectable } from '@nestjs/common';

/**
 * Who the hosted login is signing the user in *for*, when that is not the workspace or client in
 * the link: the SAML module names the service provider whose request is waiting (decision 0022).
 * The SAML module sits above this one (it imports HostedLoginModule), so it cannot be injected here:
 * the hosted login module provides an empty slot under this token and SAML fills it at start-up.
 * Unfilled, the page names the workspace or client as before.
 */
export const LOGIN_APP_NAMES = Symbol('LOGIN_APP_NAMES');

export interface LoginAppNames {
  /** The application's name for a sign-in that continues to `next` in `workspaceId`, or null. */
  nameFor(next: string, workspaceId: string | null, cookies: Record<string, unknown>): Promise<string | null>;
}

/** The port a module above fills with its LoginAppNames (one source: the last one set wins). */
@Injectable()
export class LoginAppNamesSlot implements LoginAppNames {
  private source: LoginAppNames | null = null;

  fill(source: LoginAppNames): void {
    this.source = source;
  }

  nameFor(next: string, workspaceId: string | null, cookies: Record<string, unknown>): Promise<string | null> {
    return this.source ? this.source.nameFor(next, workspaceId, cookies) : Promise.resolve(null);
  }
}
