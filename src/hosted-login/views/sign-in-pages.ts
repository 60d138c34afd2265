import { renderErrorPage } from '../../common/html/error-page.view';
import { contextQuery, HOSTED_LOGIN_PATH, HostedInput } from '../hosted-input';
import type { SignInView } from '../hosted-outcome';
import { renderLoginPage } from './login-page.view';
import { renderCompanySignInPage } from './company-sign-in-page.view';
import { renderResetConfirmPage, renderResetRequestPage } from './reset-password.view';
import { renderSecondFactorPage } from './second-factor-page.view';
import { renderSignedInPage } from './signed-in-page.view';
import { renderSignUpPage } from './sign-up-page.view';
import { PASSWORD_MIN_LENGTH } from '../hosted-sign-up.service';
import { renderVerifyEmailPage } from './verify-email-page.view';

/** What every sign-in page is drawn for: the request's fields (context, next, email) and its form token. */
export interface SignInPageRequest {
  input: HostedInput;
  csrfToken: string;
}

/** Draws a page of the hosted sign-in (the controller's half of a SignInResult): each form posts back to the hosted login. */
export function drawSignInPage(view: SignInView, { input, csrfToken }: SignInPageRequest): string {
  const base = HOSTED_LOGIN_PATH;
  const fields = { csrfToken, next: input.next, context: input.context };
  const signInHref = `${base}?${contextQuery(input)}`;
  // The forms that ask for the email: its value typed before or carried by the link, and the error of the last try.
  const emailForm = (v: { brand: string; email?: string; error?: string | null }) => ({
    ...fields,
    brand: v.brand,
    email: v.email ?? input.email,
    error: v.error ?? null,
  });
  switch (view.page) {
    case 'login':
      return renderLoginPage({
        ...emailForm(view),
        action: base,
        appName: input.appName,
        notice: view.notice ?? null,
        resetHref: `${base}reset/?${contextQuery(input)}`,
        signUpHref: view.signUp ? `${base}signup/?${contextQuery(input)}` : null,
        passkey: { action: `${base}passkey/`, optionsUrl: `${base}passkey/options/` },
        companySignIn: view.companySignIn ?? false,
      });
    case 'company-sign-in':
      return renderCompanySignInPage({ location: view.location, brand: view.brand });
    case 'signup':
      return renderSignUpPage({
        ...emailForm(view),
        action: `${base}signup/`,
        signInHref,
        passwordMinLength: PASSWORD_MIN_LENGTH,
      });
    case 'second-factor':
      return renderSecondFactorPage({
        ...fields,
        action: `${base}mfa/`,
        mfaToken: view.mfaToken,
        brand: view.brand,
        methods: view.methods,
        error: view.error ?? null,
        recoveryFirst: view.recoveryFirst ?? false,
        passkeyOptions: view.passkeyOptions,
        after: view.after,
      });
    case 'verify-email':
      return renderVerifyEmailPage({
        ...emailForm(view),
        action: `${base}verify/`,
        resendAction: `${base}verify/resend/`,
        email: view.email ?? input.email ?? '',
        notice: view.notice ?? null,
      });
    case 'reset-request':
      return renderResetRequestPage({
        ...emailForm(view),
        action: `${base}reset/`,
        backHref: signInHref,
      });
    case 'reset-confirm':
      return renderResetConfirmPage({
        ...emailForm(view),
        action: `${base}reset/confirm/`,
        email: view.email ?? input.email ?? '',
      });
    case 'signed-in':
      return renderSignedInPage({
        email: view.email,
        logoutAction: `${base}logout/`,
        csrfToken,
        brand: view.brand,
        appName: input.appName || view.brand,
        context: input.context,
      });
  }
}

/** The error page of a refused sign-in request; `retry` links back to the form of the same context. */
export function drawSignInRefusal(refused: { status: number; message: string; retry?: boolean }, input: HostedInput): string {
  const retryHref = refused.retry ? `${HOSTED_LOGIN_PATH}?${contextQuery(input)}` : undefined;
  return renderErrorPage({ status: refused.status, message: refused.message, retryHref });
}
