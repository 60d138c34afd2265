import { safeNext } from './safe-next';
import type { LoginContext } from './views/login-page.view';

/** Where the hosted pages are served; another SAML_IDP_LOGIN_URL path redirects here (HostedLoginModule). */
export const HOSTED_LOGIN_PATH = '/auth/login/';

/** Form or query fields of the hosted pages, already reduced to strings. */
export interface HostedInput {
  next: string;
  context: LoginContext;
  email?: string;
  password?: string;
  code?: string;
  newPassword?: string;
  /** The second step: the mfa_token of the password step and a recovery code (the TOTP code is `code`). */
  mfaToken?: string;
  recoveryCode?: string;
  /** A WebAuthn credential (JSON text) from a passkey ceremony of the page. */
  passkeyResponse?: string;
  /** The signed-in user is asked for a second factor only (SAML step-up, OpenID acr_values). */
  stepUp?: boolean;
  /** prompt=login (OpenID Connect Core §3.1.2.1): the form even for a signed-in browser, whose session the new sign-in replaces. */
  reauthenticate?: boolean;
  /** The application the sign-in continues to, when the controller knows it (the SAML SP). */
  appName?: string | null;
}

/** The browser side of a form post: its login-CSRF cookie (what a continuation is bound to) and continuation cookie. */
export interface BrowserBinding {
  csrfCookie: unknown;
  continuation: unknown;
}

/** SAML_IDP_LOGIN_URL as a path with a trailing slash (an absolute URL means another host serves it). */
export function hostedBasePath(loginUrl: string): string {
  const path = loginUrl.startsWith('/') ? loginUrl : '/auth/login/';
  return path.endsWith('/') ? path : `${path}/`;
}

export function contextQuery(input: Pick<HostedInput, 'next' | 'context'>, opts: { withNext?: boolean } = {}): string {
  const q = new URLSearchParams(opts.withNext === false ? {} : { next: input.next });
  if (input.context.clientId) q.set('client_id', input.context.clientId);
  if (input.context.workspaceId) q.set('workspace_id', input.context.workspaceId);
  return q.toString();
}

export function hostedInput(source: unknown): HostedInput {
  const s = (source && typeof source === 'object' ? source : {}) as Record<string, unknown>;
  const str = (v: unknown, max: number) => (typeof v === 'string' ? v.slice(0, max) : undefined);
  return {
    next: safeNext(s.next),
    context: { clientId: str(s.client_id, 200) || null, workspaceId: str(s.workspace_id, 64) || null },
    // login_hint (OpenID Connect Core §3.1.2.1) names the same person; the hosted login takes it as its own parameter too.
    email: str(s.email, 254) ?? str(s.login_hint, 254),
    password: str(s.password, 1024),
    code: str(s.code, 32),
    newPassword: str(s.new_password, 1024),
    mfaToken: str(s.mfa_token, 200),
    stepUp: s.step_up === '1' || undefined,
    reauthenticate: s.prompt === 'login' || undefined,
    recoveryCode: str(s.recovery_code, 64),
    passkeyResponse: str(s.passkey_response, 65536),
  };
}
