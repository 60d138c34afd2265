import { renderErrorPage } from '../../common/html/error-page.view';
import { renderLoginPage } from './login-page.view';
import { renderCompanySignInPage } from './company-sign-in-page.view';
import { renderResetRequestPage } from './reset-password.view';
import { renderSignedInPage } from './signed-in-page.view';
import { renderVerifyEmailPage } from './verify-email-page.view';

const base = { action: '/auth/login/', csrfToken: 'tok"en', next: '/saml/sso/finish/', context: { workspaceId: 'ws-1' } };

describe('hosted login page', () => {
  it('labels every field and sets autocomplete for password managers', () => {
    const page = renderLoginPage(base);
    expect(page).toContain('<label for="email">Email</label>');
    expect(page).toContain('<label for="password">Password</label>');
    // One valid autofill token (HTML "autocomplete" takes a single field name): the account's name beside its password.
    expect(page).toContain('autocomplete="username"');
    expect(page).not.toMatch(/autocomplete="[^"]* [^"]*"/);
    expect(page).toContain('autocomplete="current-password"');
    expect(page).toMatch(/<html lang="en">/);
  });

  it('carries the CSRF token, next and context as escaped hidden fields', () => {
    const page = renderLoginPage(base);
    expect(page).toContain('name="csrf_token" value="tok&quot;en"');
    expect(page).toContain('name="next" value="/saml/sso/finish/"');
    expect(page).toContain('name="workspace_id" value="ws-1"');
    expect(page).not.toContain('name="client_id"');
  });

  it('announces an error once, in one alert region, and marks the fields invalid', () => {
    const page = renderLoginPage({ ...base, email: 'a@b.co', error: 'Incorrect email or password.' });
    // role="alert" is already an assertive live region: a second aria-live makes screen readers say it twice.
    expect(page).toMatch(/<div id="form-error" class="alert error" role="alert">Incorrect email or password\.<\/div>/);
    expect(page.match(/Incorrect email or password/g)).toHaveLength(1);
    expect(page).not.toContain('aria-live');
    expect(page).toContain('aria-invalid="true"');
    expect(page).toContain('value="a@b.co"');
  });

  it('lets the password be left empty where a company signs its people in, and says so beside the field', () => {
    expect(renderLoginPage(base)).toMatch(/id="password"[^>]*\srequired/);
    const page = renderLoginPage({ ...base, companySignIn: true, error: 'Email or password is incorrect' });
    expect(page).not.toMatch(/id="password"[^>]*\srequired/);
    expect(page).toContain('aria-describedby="password-hint form-error"');
    expect(page).toMatch(/<p class="hint" id="password-hint">[^<]*Leave it empty/);
  });

  it('hands the browser on to the company sign-in with a refresh and a link, escaped, without script', () => {
    const page = renderCompanySignInPage({ location: '/auth/sso/3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11/?next=%2Fa&b="c"' });
    expect(page).toContain(
      '<meta http-equiv="refresh" content="0;url=/auth/sso/3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11/?next=%2Fa&amp;b=&quot;c&quot;" />',
    );
    expect(page).toContain('<a href="/auth/sso/3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11/?next=%2Fa&amp;b=&quot;c&quot;">');
    expect(page).not.toContain('<script');
  });

  it('escapes a hostile email echoed back into the form', () => {
    const page = renderLoginPage({ ...base, email: '"><script>alert(1)</script>' });
    expect(page).not.toContain('<script>alert');
  });

  it('works without JavaScript', () => {
    expect(renderLoginPage(base)).not.toMatch(/<script/i);
  });
});

describe('verify email page', () => {
  it('asks for the code with one-time-code autocomplete and offers a resend', () => {
    const page = renderVerifyEmailPage({
      ...base,
      action: '/auth/login/verify/',
      resendAction: '/auth/login/verify/resend/',
      email: 'a@b.co',
    });
    expect(page).toContain('autocomplete="one-time-code"');
    expect(page).toContain('action="/auth/login/verify/resend/"');
    expect(page).toContain('<strong>a@b.co</strong>');
  });
});

describe("the signed-in person's pages", () => {
  it('the signed-in page links to the security page and the sessions page, keeping the application', () => {
    const page = renderSignedInPage({
      email: 'a@b.co',
      logoutAction: '/auth/login/logout/',
      csrfToken: 't',
      context: { clientId: 'cli_1' },
    });
    expect(page).toContain('<nav class="meta account-links" aria-label="Your account">');
    expect(page).toContain('href="/auth/security/?client_id=cli_1">Security: two-step verification and passkeys</a>');
    expect(page).toContain('href="/auth/sessions/?client_id=cli_1">Your sessions</a>');
  });
});

describe('reset password page', () => {
  it('asks for the address with the email autofill token', () => {
    const page = renderResetRequestPage({ ...base, action: '/auth/login/reset/', backHref: '/auth/login/' });
    expect(page).toContain('autocomplete="email"');
  });
});

describe('error page', () => {
  it('says a refusal once: the message does not repeat the heading', () => {
    const page = renderErrorPage({ status: 429, message: 'Too many attempts; wait a moment and try again' });
    expect(page.match(/Too many attempts/gi)).toHaveLength(2); // the <title> and the heading
    expect(page).toContain('<h1>Too many attempts</h1>');
    expect(page).toContain('role="alert">Wait a moment and try again</div>');
  });

  it('keeps a message that only starts like the heading', () => {
    const page = renderErrorPage({ status: 404, message: 'Page not foundation' });
    expect(page).toContain('role="alert">Page not foundation</div>');
  });

  it('shows a title, the message and a reference, never markup from the message', () => {
    const page = renderErrorPage({ status: 400, message: '<b>bad</b>', requestId: 'req-1' });
    expect(page).toContain('This request could not be completed');
    expect(page).toContain('&lt;b&gt;bad&lt;/b&gt;');
    expect(page).toContain('req-1');
  });
});
