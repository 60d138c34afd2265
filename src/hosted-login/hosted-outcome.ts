/** What the controller writes besides the answer: the sign-in continuation cookie set or cleared. */
export interface ContinuationEffect {
  continuation?: { set: string } | 'clear';
}

/** On to `location`, with the browser session's cookie set (sessionToken) or cleared. */
export interface HostedRedirect {
  kind: 'redirect';
  location: string;
  sessionToken?: string;
  clearSession?: boolean;
}

/**
 * What a hosted page's request comes to; services answer it and the controllers draw it (no
 * service renders HTML or touches Express): one of the area's pages (`View`, with what it says,
 * drawn for the request's form token), or a redirect.
 */
export type HostedResult<View> = { kind: 'page'; status: number; view: View } | HostedRedirect;

/** A sign-in request refused with an error page (an incomplete link, an expired form); `retry` links back to the form. */
export interface SignInRefused {
  kind: 'refused';
  status: number;
  message: string;
  retry?: boolean;
}

/** A page of the hosted sign-in; `email`, when set, replaces the one the form sent (normalised, or the account's). */
export type SignInView =
  | {
      page: 'login';
      brand: string;
      email?: string;
      error?: string | null;
      notice?: string | null;
      signUp?: boolean;
      /** Some addresses of the workspace sign in at their company's identity provider (the password may be left empty). */
      companySignIn?: boolean;
    }
  /** Hands the browser on to an SSO connection's sign-in (`location`, a path of this service). */
  | { page: 'company-sign-in'; brand?: string; location: string }
  | { page: 'signup'; brand: string; email?: string; error?: string | null }
  | {
      page: 'second-factor';
      brand: string;
      mfaToken: string;
      methods: string[];
      /** WebAuthn request options when a passkey is among the methods (the ceremony starts on the page). */
      passkeyOptions?: unknown;
      error?: string | null;
      recoveryFirst?: boolean;
      /** Why the factor is asked: right after the password, or by an application of a signed-in user (step-up). */
      after?: 'password' | 'step-up';
    }
  | { page: 'verify-email'; brand: string; email?: string; error?: string | null; notice?: string | null }
  | { page: 'reset-request'; brand: string; email?: string; error?: string | null }
  | { page: 'reset-confirm'; brand: string; email?: string; error?: string | null }
  | { page: 'signed-in'; brand?: string; email: string };

export type SignInResult = ContinuationEffect & (HostedResult<SignInView> | SignInRefused);

/** A page answer with `status`. */
export const pageOf = <View>(status: number, view: View): { kind: 'page'; status: number; view: View } => ({ kind: 'page', status, view });

/** The link does not say which application the person signs in to (no known client_id or workspace_id). */
export const INCOMPLETE_LINK: SignInResult = {
  kind: 'refused',
  status: 400,
  message: 'This sign-in link is incomplete: it does not say which application you are signing in to. Start again from the application.',
};

/** The step to a company's identity provider without the connection it goes to. */
export const INCOMPLETE_COMPANY_LINK: SignInResult = {
  kind: 'refused',
  status: 400,
  message: "This sign-in link is incomplete: it does not name your organization's sign-in. Start again from the application.",
};

/** A form posted without its CSRF token (expired, or opened in another browser): nothing is done. */
export const EXPIRED_FORM: SignInResult = {
  kind: 'refused',
  status: 403,
  message: 'This sign-in form has expired or was opened in another browser. Go back and try again.',
  retry: true,
};
