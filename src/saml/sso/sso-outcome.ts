import type { RequestMeta } from '../../common/request-context';
import type { IdpSettings } from '../idp/idp-settings';
import type { AuthnRequestInfo } from '../protocol/authn-request.parser';
import type { SamlServiceProvider } from '../sps/entities/saml-service-provider.entity';
import { samlRefusal } from '../saml.errors';

/** What the ticket cookie (the parked request's id) does: cleared, or left as it is. */
export type TicketEffect = 'clear' | 'keep';

/** A signed SAML Response on its way to the SP's ACS by the HTTP-POST binding (saml-bindings §3.5). */
export interface SamlPost {
  acsUrl: string;
  /** The Response XML, base64-encoded as the form field carries it. */
  samlResponse: string;
  relayState?: string;
}

/**
 * What an SSO request comes to; the controller renders it and no service touches HTTP.
 * - assertion: a signed Response with an assertion for the signed-in user, posted to the ACS;
 * - status: a signed Response with only a status (NoPassive, NoAuthnContext, …), posted to the ACS;
 * - login: a trip to the hosted login (ticket: a new ticket cookie, or 'keep'); signOut (ForceAuthn,
 *   another workspace's user) drops the browser session so the login page asks for the password;
 * - refused: an error page for the browser; nothing goes to the SP.
 */
export type SsoOutcome =
  | { kind: 'assertion'; post: SamlPost; ticket: TicketEffect }
  | { kind: 'status'; post: SamlPost; ticket: TicketEffect }
  | { kind: 'login'; location: string; ticket: string | 'keep'; signOut: boolean }
  | SsoRefused;

export interface SsoRefused {
  kind: 'refused';
  status: number;
  /** Stable code of the refusal (saml_…), for logs and tests; the page shows the message. */
  code: string;
  /** The page's heading when it says more than the status's usual one. */
  title?: string;
  message: string;
  ticket: TicketEffect;
}

/** The HTTP-POST binding of a request: re-sent to the Redirect-binding GET, or refused. */
export type SsoPostOutcome = { kind: 'resend'; location: string } | SsoRefused;

/** The end user an assertion or a refusal after sign-in is about (the audit row's actor). */
export interface EndUserActor {
  type: 'end_user';
  id: string;
  email: string;
}

/**
 * A refusal as recorded: saml_sso_failure in the SP's workspace, or, with no SP identified yet,
 * counted in /metrics and logged (decision 0206). Caller-supplied strings are capped when recorded.
 */
export interface SsoFailure {
  sp: SamlServiceProvider | null;
  reason: string;
  message: string;
  metadata?: Record<string, unknown>;
  actor?: EndUserActor;
}

/**
 * A check that did not pass: what is recorded (nothing when `failure` is null) and how the browser
 * is answered, with an error page or with a signed status Response to the SP's ACS.
 */
export type SsoRefusal =
  | { answer: 'page'; failure: SsoFailure | null; status: number; code: string; message: string; title?: string }
  | { answer: 'status'; failure: SsoFailure | null; topLevel: string; status: string; message: string };

export type SsoPageRefusal = Extract<SsoRefusal, { answer: 'page' }>;

/** The code and status of a page refusal, from the SAML catalog. */
export function catalogued(code: string): { code: string; status: number } {
  const { status } = samlRefusal(code);
  return { code, status };
}

/** The common refusal: recorded under `reason`, answered with an error page that says `message`. */
export function refusedWithPage(
  sp: SamlServiceProvider | null,
  reason: string,
  message: string,
  metadata: Record<string, unknown> = {},
  opts: { actor?: EndUserActor; code?: string } = {},
): SsoPageRefusal {
  // The status is the SAML catalog's (decision 0161): an unlisted code throws here, and the catalog test finds it first.
  const { code, status } = samlRefusal(opts.code ?? `saml_${reason}`);
  return { answer: 'page', failure: { sp, reason, message, metadata, actor: opts.actor }, status, code, message };
}

/** A request being answered: the IdP's settings, the registered SP, the checked AuthnRequest, its RelayState. */
export interface SsoFlow {
  settings: IdpSettings;
  sp: SamlServiceProvider;
  request: AuthnRequestInfo;
  relayState: string | null;
  meta: RequestMeta;
}

export const isRefusal = (value: unknown): value is SsoRefusal =>
  typeof value === 'object' &&
  value !== null &&
  'answer' in value &&
  ((value as SsoRefusal).answer === 'page' || (value as SsoRefusal).answer === 'status');
