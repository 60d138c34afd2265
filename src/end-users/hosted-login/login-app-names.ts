/**
 * Who the hosted login is signing the user in *for*, when that is not the workspace or client in
 * the link: the SAML module names the service provider whose request is waiting (decision 0022).
 * Provided by SamlModule (global); absent, the page names the workspace or client as before.
 */
export const LOGIN_APP_NAMES = Symbol('LOGIN_APP_NAMES');

export interface LoginAppNames {
  /** The application's name for a sign-in that continues to `next` in `workspaceId`, or null. */
  nameFor(next: string, workspaceId: string | null, cookies: Record<string, unknown>): Promise<string | null>;
}
